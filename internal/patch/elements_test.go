package patch

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

func TestTemplateElements(t *testing.T) {
	tags := map[string]bool{"sdf-button": true, "sdf-alert": true}
	for _, tc := range []struct {
		note, file, content string
		want                []Element
	}{
		{note: "html: attribute names as written, lines, other tags skipped", file: "a.component.html",
			content: "<h1>x</h1>\n@if (ok) {\n  <sdf-button [invented]=\"x\" (click)=\"go()\" [(open)]=\"o\" *ngIf=\"y\" #ref label=\"L\"></sdf-button>\n}\n<app-item [item]=\"i\"></app-item>\n<SDF-ALERT heading=\"h\"/>\n",
			want: []Element{
				{Tag: "sdf-button", Attributes: []string{"[invented]", "(click)", "[(open)]", "*ngIf", "#ref", "label"}, Line: 3},
				{Tag: "sdf-alert", Attributes: []string{"heading"}, Line: 6},
			}},
		{note: "nested elements", file: "a.html",
			content: "<div>\n<sdf-alert heading=\"h\">\n  <sdf-button label=\"x\"></sdf-button>\n</sdf-alert></div>",
			want: []Element{
				{Tag: "sdf-alert", Attributes: []string{"heading"}, Line: 2},
				{Tag: "sdf-button", Attributes: []string{"label"}, Line: 3},
			}},
		{note: "ts: the inline template's lines are the file's", file: "a.component.ts",
			content: "import { Component } from '@angular/core';\n\n@Component({\n  selector: 'app-a',\n  template: `\n    <sdf-button [size]=\"s\"></sdf-button>`,\n})\nexport class A { html = '<sdf-button [nope]=\"1\">'; }\n",
			want:    []Element{{Tag: "sdf-button", Attributes: []string{"[size]"}, Line: 6}}},
		{note: "elements Angular instantiates are never hidden: noscript, <? and </ text, svg title", file: "a.html",
			content: "<noscript><sdf-button [a]=\"1\"></sdf-button></noscript>\n<?x <sdf-button [b]=\"1\">\n</ 1 <sdf-button [c]=\"1\">\n<svg><title><sdf-button [d]=\"1\"></title></svg>\n<script><sdf-button [e]></script><textarea><sdf-button [f]></textarea>",
			want: []Element{
				{Tag: "sdf-button", Attributes: []string{"[a]"}, Line: 1},
				{Tag: "sdf-button", Attributes: []string{"[b]"}, Line: 2},
				{Tag: "sdf-button", Attributes: []string{"[c]"}, Line: 3},
				{Tag: "sdf-button", Attributes: []string{"[d]"}, Line: 4},
			}},
		{note: "other files have no templates", file: "a.go", content: "// <sdf-button [x]=\"y\">", want: nil},
	} {
		t.Run(tc.note, func(t *testing.T) {
			got, err := TemplateElements(context.Background(), tc.file, tc.content, tags)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				got[i].key = ""
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestChangedElements(t *testing.T) {
	tags := map[string]bool{"sdf-button": true}
	before := "<sdf-button label=\"a\"></sdf-button>\n<sdf-button label=\"b\"></sdf-button>\n"
	for _, tc := range []struct {
		note, after string
		want        []string // the changed elements' first attribute
	}{
		{note: "moved elements are not the patch's", after: "<p></p>\n<sdf-button label=\"b\"></sdf-button>\n<sdf-button label=\"a\"></sdf-button>\n"},
		{note: "reformatted whitespace is unchanged", after: "<sdf-button   label=\"a\"\n></sdf-button>\n<sdf-button label=\"b\"></sdf-button>\n"},
		{note: "a changed attribute", after: "<sdf-button label=\"a\" [x]=\"1\"></sdf-button>\n<sdf-button label=\"b\"></sdf-button>\n", want: []string{"label"}},
		{note: "a copy of an existing element is new", after: before + "<sdf-button label=\"a\"></sdf-button>\n", want: []string{"label"}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			b, err := TemplateElements(context.Background(), "a.html", before, tags)
			if err != nil {
				t.Fatal(err)
			}
			a, err := TemplateElements(context.Background(), "a.html", tc.after, tags)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range ChangedElements(b, a) {
				got = append(got, e.Attributes[0])
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v want %v", got, tc.want)
			}
		})
	}
}

func TestCustomTags(t *testing.T) {
	got := CustomTags("<div><sdf-button></sdf-button><SDF-Button/><app-x-y a='<b>'>")
	if want := []string{"sdf-button", "app-x-y"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
}

// BenchmarkContractElements2000Lines is what the contract check adds to a
// rewrite_template_tag patch of a 2,000-line template (200 elements, all
// changed): finding the custom tags, tokenizing the before and after
// templates for the contracted ones, and comparing them.
func BenchmarkContractElements2000Lines(b *testing.B) {
	before := template2000()
	after := migrated2000(b, before)
	benchContractElements(b, before, after, 200)
}

// BenchmarkContractElementsReplaceText2000Lines: a replace_text patch on
// a 2,000-line template that already holds 200 contracted elements, one of
// which it changes: both contents are tokenized.
func BenchmarkContractElementsReplaceText2000Lines(b *testing.B) {
	before := migrated2000(b, template2000())
	after := strings.Replace(before, `[message]="messages[150]"`, `[heading]="messages[150]"`, 1)
	benchContractElements(b, before, after, 1)
}

func migrated2000(b *testing.B, before string) string {
	after, probs := Apply(context.Background(), before, []Edit{{Op: "codemod", Codemod: "rewrite_template_tag", Params: map[string]any{
		"fromTag": "adp-alert", "toTag": "sdf-alert", "propMappings": map[string]any{"type": "severity", "closed": "dismissed"},
	}}}, Options{File: "big.component.html"})
	if len(probs) > 0 {
		b.Fatal(probs)
	}
	return after
}

func benchContractElements(b *testing.B, before, after string, changed int) {
	ctx := context.Background()
	b.SetBytes(int64(len(after)))
	start := cpuTime()
	for b.Loop() {
		tags := map[string]bool{}
		for _, t := range CustomTags(after) {
			if t == "sdf-alert" { // the tags the graph has contracts for
				tags[t] = true
			}
		}
		bs, err := TemplateElements(ctx, "big.component.html", before, tags)
		if err != nil {
			b.Fatal(err)
		}
		as, err := TemplateElements(ctx, "big.component.html", after, tags)
		if err != nil {
			b.Fatal(err)
		}
		if n := len(ChangedElements(bs, as)); n != changed {
			b.Fatalf("%d changed elements", n)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}
