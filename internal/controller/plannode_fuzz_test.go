package controller

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpc/mcpc/internal/exactjson"
	"github.com/mcpc/mcpc/internal/store"
)

// FuzzDecodePlanNode holds what Go executes of a plan node to what policy
// judged: a node object that decodes without problems is stored as
// acceptPlan stores it, read back as the executors read it, and every field
// they act on must be the judged object's value under that exact key.
func FuzzDecodePlanNode(f *testing.F) {
	f.Add([]byte(`{"nodeId":"c","kind":"change","targetFile":"src/a.ts","dependsOn":["v"],"verificationHooks":[{"recipeId":"r"}]}`))
	f.Add([]byte(`{"nodeId":"s","kind":"side_effect","sideEffectType":"notification","commitGateId":"g"}`))
	f.Add([]byte(`{"nodeId":"v","kind":"validate","targetfile":"other.ts","mapsToNodeIds":["c"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, probs, err := exactjson.Decode(data)
		m, isObject := v.(map[string]any)
		if err != nil || len(probs) > 0 || !isObject {
			return
		}
		body, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got := decodeNode(store.Node{Body: body})
		str := func(k string) string { s, _ := m[k].(string); return s }
		want := map[string]string{"nodeId": str("nodeId"), "kind": str("kind"), "targetFile": str("targetFile"),
			"sideEffectType": str("sideEffectType"), "commitGateId": str("commitGateId")}
		have := map[string]string{"nodeId": got.NodeID, "kind": got.Kind, "targetFile": got.TargetFile,
			"sideEffectType": got.SideEffectType, "commitGateId": got.CommitGateID}
		if !reflect.DeepEqual(have, want) {
			t.Fatalf("executed %v, judged %v", have, want)
		}
		if !reflect.DeepEqual(got.DependsOn, stringList(m["dependsOn"])) || !reflect.DeepEqual(got.MapsToNodeIDs, stringList(m["mapsToNodeIds"])) {
			t.Fatalf("edges %v %v, judged %v %v", got.DependsOn, got.MapsToNodeIDs, m["dependsOn"], m["mapsToNodeIds"])
		}
	})
}
