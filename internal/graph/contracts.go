package graph

import (
	"fmt"
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/mcpc/mcpc/internal/grammar"
)

// Contract is one design-system component as a components.d.ts declares it.
type Contract struct {
	Tag   string         `json:"tag"`
	Props []ContractProp `json:"props"`
	// Events are the custom events the component emits (Stencil's @Event
	// names, e.g. "sdfChange"), sorted: what an Angular (sdfChange)
	// binding may listen to.
	Events []string `json:"events"`
}

// ContractProp is one property of a component's contract.
type ContractProp struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Required bool   `json:"required"`
}

var typescript = grammar.Languages[grammar.TypeScript]

// maxTypeText bounds a prop's type text: union types of icon names run to
// kilobytes and say nothing more in a pack.
const maxTypeText = 200

// ParseContracts reads a Stencil-style components.d.ts: the tags mapped in
// HTMLElementTagNameMap, each to an element interface that extends
// Components.X (or declares its properties itself); the props are X's
// property signatures. Tags without a resolvable interface get no props.
// The events are what Stencil's compiler declares for X's @Event members:
// the property names of the element's event map (interface
// HTMLXElementEventMap) and the on-props of LocalJSX.X ("onSdfChange" is the
// event "sdfChange").
func ParseContracts(src []byte) ([]Contract, error) {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(typescript); err != nil {
		return nil, err
	}
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil, fmt.Errorf("components.d.ts: parse failed")
	}
	defer tree.Close()
	ifaces := map[string]*sitter.Node{} // "Components.SdfButton" and "SdfButton"
	var tagMaps []*sitter.Node
	var walk func(n *sitter.Node, ns string, depth int)
	walk = func(n *sitter.Node, ns string, depth int) {
		if depth > 64 {
			return
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			switch c.Kind() {
			case "interface_declaration":
				name := text(src, c.ChildByFieldName("name"))
				if name == "HTMLElementTagNameMap" {
					tagMaps = append(tagMaps, c)
					continue
				}
				if ns != "" {
					if _, seen := ifaces[ns+"."+name]; !seen {
						ifaces[ns+"."+name] = c
					}
				}
				if _, seen := ifaces[name]; !seen {
					ifaces[name] = c
				}
			case "internal_module", "module":
				inner := text(src, c.ChildByFieldName("name"))
				if ns != "" {
					inner = ns + "." + inner
				}
				walk(c, inner, depth+1)
			default:
				walk(c, ns, depth+1)
			}
		}
	}
	walk(tree.RootNode(), "", 0)
	seen := map[string]bool{}
	var out []Contract
	for _, m := range tagMaps {
		for _, sig := range bodyMembers(m) {
			if sig.Kind() != "property_signature" {
				continue
			}
			tag := unquoteTS(text(src, sig.ChildByFieldName("name")))
			if !strings.Contains(tag, "-") || seen[tag] {
				continue
			}
			seen[tag] = true
			c := Contract{Tag: tag, Props: []ContractProp{}}
			elem := typeText(src, sig)
			if el := ifaces[elem]; el != nil {
				c.Props = propsOf(src, el, ifaces)
			}
			c.Events = eventsOf(src, elem, ifaces)
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tag < out[j].Tag })
	return out, nil
}

// propsOf returns an element interface's own property signatures, or else
// those of the Components.X interface it extends.
func propsOf(src []byte, el *sitter.Node, ifaces map[string]*sitter.Node) []ContractProp {
	if own := signatures(src, el); len(own) > 0 {
		return own
	}
	for i := uint(0); i < el.NamedChildCount(); i++ {
		c := el.NamedChild(i)
		if c.Kind() != "extends_type_clause" {
			continue
		}
		for j := uint(0); j < c.NamedChildCount(); j++ {
			name := text(src, c.NamedChild(j))
			if base := ifaces[name]; base != nil && !strings.HasPrefix(name, "HTML") {
				if ps := signatures(src, base); len(ps) > 0 {
					return ps
				}
			}
		}
	}
	return []ContractProp{}
}

func signatures(src []byte, iface *sitter.Node) []ContractProp {
	var out []ContractProp
	for _, sig := range bodyMembers(iface) {
		if sig.Kind() != "property_signature" {
			continue
		}
		name := unquoteTS(text(src, sig.ChildByFieldName("name")))
		optional := false
		for k := uint(0); k < sig.ChildCount(); k++ {
			if sig.Child(k).Kind() == "?" {
				optional = true
			}
		}
		t := typeText(src, sig)
		if len(t) > maxTypeText {
			t = t[:maxTypeText] + "…"
		}
		out = append(out, ContractProp{Name: name, Type: t, Required: !optional})
	}
	return out
}

func bodyMembers(iface *sitter.Node) []*sitter.Node {
	body := iface.ChildByFieldName("body")
	if body == nil {
		return nil
	}
	var out []*sitter.Node
	for i := uint(0); i < body.NamedChildCount(); i++ {
		out = append(out, body.NamedChild(i))
	}
	return out
}

// typeText is the text of a signature's type annotation, without the colon.
func typeText(src []byte, sig *sitter.Node) string {
	t := sig.ChildByFieldName("type")
	if t == nil {
		return ""
	}
	return strings.Join(strings.Fields(strings.TrimPrefix(strings.TrimSpace(text(src, t)), ":")), " ")
}

func text(src []byte, n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(src[n.StartByte():n.EndByte()])
}

func unquoteTS(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// eventsOf are the events of the component whose element interface is
// elem (HTMLSdfButtonElement): its event map's members and LocalJSX's
// on-props of the same component (SdfButton), sorted and distinct.
func eventsOf(src []byte, elem string, ifaces map[string]*sitter.Node) []string {
	seen := map[string]bool{}
	if m := ifaces[elem+"EventMap"]; m != nil {
		for _, sig := range bodyMembers(m) {
			if sig.Kind() == "property_signature" {
				seen[unquoteTS(text(src, sig.ChildByFieldName("name")))] = true
			}
		}
	}
	if name, ok := strings.CutPrefix(elem, "HTML"); ok {
		if name, ok = strings.CutSuffix(name, "Element"); ok {
			if jsx := ifaces["LocalJSX."+name]; jsx != nil {
				for _, sig := range bodyMembers(jsx) {
					if sig.Kind() != "property_signature" {
						continue
					}
					prop := unquoteTS(text(src, sig.ChildByFieldName("name")))
					if ev, ok := strings.CutPrefix(prop, "on"); ok && ev != "" && ev[0] >= 'A' && ev[0] <= 'Z' {
						seen[strings.ToLower(ev[:1])+ev[1:]] = true
					}
				}
			}
		}
	}
	events := make([]string, 0, len(seen))
	for ev := range seen {
		if ev != "" {
			events = append(events, ev)
		}
	}
	sort.Strings(events)
	return events
}
