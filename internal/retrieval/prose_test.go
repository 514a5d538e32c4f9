package retrieval

import (
	"slices"
	"testing"
)

func TestProseWordsAreNoQueryTerms(t *testing.T) {
	tests := []struct {
		note, prompt string
		gone, kept   []string
	}{
		{note: "a verb and a preposition", prompt: "fix: JSON import goes through MD serialization", gone: []string{"goe", "through"}, kept: []string{"json", "import", "serialization"}},
		{note: "same", prompt: "Sort languages on CMS and User Agreement edit page the same way", gone: []string{"same"}, kept: []string{"sort", "agreement"}},
		{note: "between", prompt: "fix: duplication tests pointer state leaking between tests", gone: []string{"between"}, kept: []string{"pointer", "leak"}},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			var got []string
			for _, q := range queryTerms(Query{Prompt: tt.prompt}) {
				got = append(got, q.term)
			}
			for _, w := range tt.gone {
				if slices.Contains(got, w) {
					t.Errorf("query terms %v hold %q", got, w)
				}
			}
			for _, w := range tt.kept {
				if !slices.Contains(got, w) {
					t.Errorf("query terms %v lack %q", got, w)
				}
			}
		})
	}
}

// TestProseWordInACommentLiftsNothing: "through" is rare in code, so a
// comment's wording made a file that holds none of the task's words a
// match; it takes no place in the pack now.
func TestProseWordInACommentLiftsNothing(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"server/queues/tasks/ImportJSONTask.ts": `import { ProsemirrorHelper } from "@server/models/helpers/ProsemirrorHelper";

export default class ImportJSONTask {
  public async parseData(json: string) {
    const data = JSON.parse(json);
    return ProsemirrorHelper.toProsemirror(data.document);
  }
}
`,
		"server/utils/queue.ts": `// Every job goes through this queue; a job that fails goes through it again.
export function enqueue(job: unknown) {
  return jobs.push(job);
}
`,
		"shared/editor/lib/markdown/serializer.ts": `export class MarkdownSerializer {
  serialize(doc: unknown) {
    return String(doc);
  }
}
`,
	})
	got := files(Rank(ix, Query{Prompt: "fix: JSON import goes through MD serialization"}))
	if len(got) == 0 || got[0] != "server/queues/tasks/ImportJSONTask.ts" || slices.Contains(got, "server/utils/queue.ts") {
		t.Errorf("rank = %v, want the import task first and no file for a comment's wording", got)
	}
}
