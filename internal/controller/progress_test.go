package controller

import (
	"reflect"
	"testing"

	"github.com/mcpc/mcpc/internal/store"
)

func TestNodeStatesOf(t *testing.T) {
	node := func(id, kind, status string, mapsTo ...string) store.Node {
		return store.Node{NodeID: id, Kind: kind, Status: status, MapsTo: mapsTo}
	}
	for _, tc := range []struct {
		note   string
		nodes  []store.Node
		states []nodeState
		of     []int
	}{
		{note: "no plan", states: []nodeState{}, of: []int{}},
		{
			note: "changes with the same validations share a state",
			nodes: []store.Node{
				node("c1", "change", "patched"), node("c2", "change", "patched"),
				node("v1", "validate", "passed", "c1"), node("v2", "validate", "passed", "c2"),
			},
			states: []nodeState{
				{Kind: "change", Status: "patched", Validators: []string{"passed"}, Count: 2},
				{Kind: "validate", Status: "passed", Validators: []string{}, Count: 2},
			},
			of: []int{0, 0, 1, 1},
		},
		{
			note: "validator statuses are distinct and sorted",
			nodes: []store.Node{
				node("c1", "change", "patched"),
				node("v1", "validate", "passed", "c1"), node("v2", "validate", "failed", "c1"), node("v3", "validate", "passed", "c1"),
			},
			states: []nodeState{
				{Kind: "change", Status: "patched", Validators: []string{"failed", "passed"}, Count: 1},
				{Kind: "validate", Status: "passed", Validators: []string{}, Count: 2},
				{Kind: "validate", Status: "failed", Validators: []string{}, Count: 1},
			},
			of: []int{0, 1, 2, 1},
		},
	} {
		t.Run(tc.note, func(t *testing.T) {
			states, of := nodeStatesOf(tc.nodes)
			if !reflect.DeepEqual(states, tc.states) || !reflect.DeepEqual(of, tc.of) {
				t.Fatalf("got %+v %v, want %+v %v", states, of, tc.states, tc.of)
			}
		})
	}
}
