package retrieval

import (
	"math"
	"slices"
	"testing"
)

// djangoHistory is a Django project's latest commits, newest first: a
// series of moves of one kind, parallel work on sibling integrations, and
// unrelated fixes that share a word with the prompts below.
var djangoHistory = []Commit{
	{Subject: "Update Signal notification template to report downtime duration", Files: []string{
		"hc/integrations/signal/templates/signal_message.html"}},
	{Subject: "Move pushover onboarding views to hc.integrations", Files: []string{
		"hc/front/forms.py", "hc/front/urls.py", "hc/front/views.py", "hc/urls.py",
		"hc/integrations/po/urls.py", "hc/integrations/po/views.py"}},
	{Subject: "Update Pushover notification payload to report downtime duration", Files: []string{
		"hc/integrations/po/templates/pushover_message.html"}},
	{Subject: "Fix the email transport's handling of attachments", Files: []string{
		"hc/integrations/email/transport.py"}},
	{Subject: "Move apprise onboarding views to hc.integrations", Files: []string{
		"hc/front/forms.py", "hc/front/urls.py", "hc/front/views.py", "hc/urls.py",
		"hc/integrations/apprise/urls.py", "hc/integrations/apprise/views.py"}},
	{Subject: "Ensure that the password dialog is shown even if only the ldap auth method is present", Files: []string{
		"hc/accounts/views.py"}},
	{Subject: "Reformat everything with black", Files: []string{
		"hc/a.py", "hc/b.py", "hc/c.py", "hc/d.py", "hc/e.py", "hc/f.py", "hc/g.py",
		"hc/h.py", "hc/i.py", "hc/j.py", "hc/k.py", "hc/l.py", "hc/m.py"}},
}

func TestSimilarLane(t *testing.T) {
	for _, tc := range []struct {
		note   string
		prompt string
		// first are the files that must lead the lane, in any order;
		// below are files that must score less than every first one;
		// absent must not be scored at all.
		first, below, absent []string
	}{
		{
			note:   "what the earlier moves share leads, each move's own files follow",
			prompt: "Move email onboarding views to hc.integrations",
			first:  []string{"hc/front/forms.py", "hc/front/urls.py", "hc/front/views.py", "hc/urls.py"},
			below:  []string{"hc/integrations/po/views.py", "hc/integrations/apprise/urls.py"},
			absent: []string{"hc/integrations/email/transport.py", "hc/accounts/views.py"},
		},
		{
			note:   "parallel work on siblings counts each sibling's files once",
			prompt: "Update Matrix notification payload to report downtime duration",
			first: []string{"hc/integrations/signal/templates/signal_message.html",
				"hc/integrations/po/templates/pushover_message.html"},
			absent: []string{"hc/front/urls.py"},
		},
		{
			note:   "a long subject holding two of the prompt's words is about something else",
			prompt: "removed references to the auth method",
			absent: []string{"hc/accounts/views.py"},
		},
		{
			note:   "a sweep is no evidence",
			prompt: "Reformat everything with black",
			absent: []string{"hc/a.py"},
		},
		{
			note:   "a prompt of stopwords finds nothing",
			prompt: "fix: update it",
		},
	} {
		t.Run(tc.note, func(t *testing.T) {
			got := similarLane(tc.prompt, djangoHistory, nil)
			for _, f := range tc.first {
				if got[f] <= 0 || got[f] > 1 {
					t.Errorf("%s = %v, want a score in (0, 1] (all: %v)", f, got[f], got)
				}
				for _, b := range tc.below {
					if got[b] <= 0 || got[b] >= got[f] {
						t.Errorf("%s = %v, want it scored below %s = %v", b, got[b], f, got[f])
					}
				}
			}
			for _, f := range tc.absent {
				if _, ok := got[f]; ok {
					t.Errorf("%s scored %v, want no score", f, got[f])
				}
			}
			if len(tc.first) == 0 && len(tc.below) == 0 && len(got) != 0 && len(tc.absent) == 0 {
				t.Errorf("similarLane = %v, want nothing", got)
			}
		})
	}
}

// TestSimilarLaneRanks: the lane reaches the pack through SideLanes, and a
// file no word of the prompt is in joins it.
func TestSimilarLaneRanks(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"hc/front/views.py":              "def add_pushover(request):\n    return render(request, 'add_pushover.html')\n",
		"hc/front/urls.py":               "urlpatterns = [path('integrations/add_pushover/', views.add_pushover)]\n",
		"hc/integrations/po/views.py":    "def add_pushover(request):\n    pass\n",
		"hc/integrations/email/views.py": "def add_email(request):\n    '''Onboarding views for email integrations.'''\n",
		"hc/api/models.py":               "class Channel:\n    kind = 'email'\n",
	})
	history := []Commit{
		{Subject: "Move pushover onboarding views to hc.integrations", Files: []string{
			"hc/front/urls.py", "hc/front/views.py", "hc/integrations/po/views.py"}},
		{Subject: "Move apprise onboarding views to hc.integrations", Files: []string{
			"hc/front/urls.py", "hc/front/views.py"}},
	}
	prompt := "Move email onboarding views to hc.integrations"
	without := Rank(ix, Query{Prompt: prompt})
	boost := SideLanes(ix, SideInputs{Prompt: prompt, History: history})
	with := Rank(ix, Query{Prompt: prompt, Boost: boost, History: history})
	urls := func(rs []Ranked) Ranked {
		for _, r := range rs {
			if r.File == "hc/front/urls.py" {
				return r
			}
		}
		return Ranked{}
	}
	if b, a := urls(without), urls(with); a.Score <= b.Score || !slices.Contains(a.Lanes, "similar") {
		t.Errorf("hc/front/urls.py, which the earlier moves edited: %+v without history, %+v with it; want it lifted by the similar lane", b, a)
	}
	got := files(with)
	if len(got) == 0 || got[0] != "hc/integrations/email/views.py" {
		t.Errorf("rank = %v, want the file the prompt's words name first", got)
	}
}

// TestAnalogueLane: a similar commit did the same work for another
// instance; its files with the prompt's instance in place of its own are
// this task's files, where the tree has them. Subjects that differ in more
// than one word each are no analogy.
func TestAnalogueLane(t *testing.T) {
	tree := map[string]bool{}
	for _, f := range []string{
		"hc/integrations/email/urls.py", "hc/integrations/email/views.py",
		"hc/integrations/matrix/urls.py", "hc/integrations/matrix/views.py",
		"hc/integrations/matrix/templates/matrix_message.html",
		"hc/integrations/rocketchat/transport.py", "hc/integrations/rocketchat/views.py",
		"hc/front/views.py", "hc/urls.py",
	} {
		tree[f] = true
	}
	has := func(f string) bool { return tree[f] }
	tests := []struct {
		note, prompt string
		want         []string
	}{
		{note: "a folder named for the instance", prompt: "Move email onboarding views to hc.integrations",
			want: []string{"hc/integrations/email/urls.py", "hc/integrations/email/views.py"}},
		{note: "folder and file name at once", prompt: "Update Matrix notification template to report downtime duration",
			want: []string{"hc/integrations/matrix/templates/matrix_message.html"}},
		{note: "two words apart is no analogy", prompt: "Move rocketchat transport to hc.integrations"},
	}
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			got := analogueLane(tc.prompt, djangoHistory, nil, has, nil)
			var files []string
			for f, v := range got {
				if v <= 0 || v > 1 {
					t.Errorf("%s scored %v, want a similarity in (0, 1]", f, v)
				}
				files = append(files, f)
			}
			slices.Sort(files)
			if !slices.Equal(files, tc.want) {
				t.Errorf("analogueLane(%q) = %v, want %v", tc.prompt, files, tc.want)
			}
		})
	}
}

func TestAnalogues(t *testing.T) {
	their := map[string]bool{"signal": true}
	tests := []struct {
		note, file string
		want       []string
	}{
		{note: "folder", file: "hc/integrations/signal/transport.py", want: []string{"hc/integrations/matrix/transport.py"}},
		{note: "file name part", file: "templates/integrations/signal_form.html", want: []string{"templates/integrations/matrix_form.html"}},
		{note: "both, then each", file: "hc/integrations/signal/templates/signal_message.html", want: []string{
			"hc/integrations/matrix/templates/matrix_message.html",
			"hc/integrations/matrix/templates/signal_message.html",
			"hc/integrations/signal/templates/matrix_message.html"}},
		{note: "no part of theirs", file: "hc/api/models.py"},
		{note: "a word inside a name is no part", file: "hc/lib/signals.py"},
	}
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			if got := analogues(tc.file, their, []string{"matrix"}); !slices.Equal(got, tc.want) {
				t.Errorf("analogues(%q) = %v, want %v", tc.file, got, tc.want)
			}
		})
	}
}

// TestAnalogueKin: where the tree has no file of the rebuilt name, the
// instance's files named the same way, of the same kind and place, stand
// in, sharing the commit's similarity; an exact name leaves no stand-ins,
// and a name without the word as its first or last part has no kin.
func TestAnalogueKin(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"hc/integrations/zulip/templates/zulip_content.html":                 "{{ check.name }} is down",
		"hc/integrations/zulip/transport.py":                                 "class Zulip(HttpTransport): pass\n",
		"hc/integrations/matrix/templates/add_matrix.html":                   "<form>room</form>",
		"hc/integrations/matrix/templates/matrix_description.html":           "{{ check.name }} is down",
		"hc/integrations/matrix/templates/matrix_description_formatted.html": "<b>{{ check.name }}</b> is down",
		"hc/integrations/matrix/transport.py":                                "class Matrix(HttpTransport): pass\n",
		"hc/integrations/po/templates/add_pushover.html":                     "<form>user key</form>",
		"hc/integrations/po/templates/pushover_message.html":                 "{{ check.name }} is down",
		"hc/integrations/po/templates/pushover_title.html":                   "{{ check.name }}",
		"hc/integrations/po/static/pushover_form.js":                         "let form = 1;\n",
		"templates/integrations/pushover_message.html":                       "{{ check.name }}",
		"hc/integrations/signal/templates/signal_content.html":               "{{ check.name }} is down",
		"hc/integrations/signal/templates/signal_description.html":           "{{ check.name }} went down",
		"hc/integrations/email/urls.py":                                      "urlpatterns = []\n",
		"hc/integrations/email/views.py":                                     "def add_email(request): pass\n",
		"hc/integrations/po/urls.py":                                         "urlpatterns = []\n",
		"hc/front/views.py":                                                  "def add_pushover(request): pass\n",
	})
	history := []Commit{
		{Subject: "Update Zulip notification payload to report downtime duration", Files: []string{
			"hc/integrations/zulip/templates/zulip_content.html", "hc/integrations/zulip/transport.py"}},
		{Subject: "Move email onboarding views to hc.integrations", Files: []string{
			"hc/front/views.py", "hc/integrations/email/urls.py", "hc/integrations/email/views.py"}},
		{Subject: "Fix the zulip transport's handling of topics", Files: []string{
			"hc/integrations/zulip/transport.py"}},
	}
	d := derive(ix)
	tests := []struct {
		note, prompt string
		want         []string
	}{
		{note: "no matrix_content.html: the matrix_ templates stand in, not add_matrix.html",
			prompt: "Update Matrix notification payload to report downtime duration",
			want: []string{"hc/integrations/matrix/templates/matrix_description.html",
				"hc/integrations/matrix/templates/matrix_description_formatted.html",
				"hc/integrations/matrix/transport.py"}},
		{note: "the instance's folder is not its word (po/); same depth and kind only",
			prompt: "Update Pushover notification payload to report downtime duration",
			want: []string{"hc/integrations/po/templates/pushover_message.html",
				"hc/integrations/po/templates/pushover_title.html"}},
		{note: "the instance's folder is the one beside theirs that holds files named for it",
			prompt: "Move pushover onboarding views to hc.integrations",
			want:   []string{"hc/integrations/po/urls.py"}},
		{note: "an exact name leaves no stand-ins",
			prompt: "Update Signal notification payload to report downtime duration",
			want:   []string{"hc/integrations/signal/templates/signal_content.html"}},
	}
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			got := analogueLane(tc.prompt, history, nil, ix.HasFile, d.kinFiles)
			var files []string
			for f := range got {
				files = append(files, f)
			}
			slices.Sort(files)
			if !slices.Equal(files, tc.want) {
				t.Fatalf("analogueLane(%q) = %v, want %v", tc.prompt, got, tc.want)
			}
		})
	}
	// The file of the same name in the instance's folder is the commit's
	// file for this instance: the whole similarity.
	moved := analogueLane(tests[2].prompt, history, nil, ix.HasFile, d.kinFiles)
	if msims, _ := similarCommits(tests[2].prompt, history, nil); math.Abs(moved["hc/integrations/po/urls.py"]-msims[1]) > 1e-9 {
		t.Errorf("po/urls.py = %v, want the move's similarity %v", moved["hc/integrations/po/urls.py"], msims[1])
	}
	// Two stand-ins share the commit's similarity: each half of it.
	got := analogueLane(tests[1].prompt, history, nil, ix.HasFile, d.kinFiles)
	sims, _ := similarCommits(tests[1].prompt, history, nil)
	if sims[0] == 0 {
		t.Fatalf("similarities %v, want the Zulip commit similar", sims)
	}
	if v := got["hc/integrations/po/templates/pushover_title.html"]; math.Abs(v-sims[0]/2) > 1e-9 {
		t.Errorf("pushover_title.html = %v, want half the commit's similarity %v", v, sims[0])
	}
}

// TestNameEndParts: the first and last parts of a file name's stem, as
// nameParts splits it, without splitting it whole.
func TestNameEndParts(t *testing.T) {
	tests := []struct {
		note, file, head, tail string
		ok                     bool
	}{
		{note: "two parts", file: "hc/integrations/zulip/templates/zulip_content.html", head: "zulip", tail: "content", ok: true},
		{note: "three parts, mixed separators", file: "src/Foo-Bar_Baz.java", head: "foo", tail: "baz", ok: true},
		{note: "dots inside the stem", file: "src/app/item.component.spec.ts", head: "item", tail: "spec", ok: true},
		{note: "one part", file: "hc/integrations/email/urls.py"},
		{note: "separators at the ends only", file: "hc/__init__.py"},
		{note: "a dotfile", file: "x/.eslintrc"},
	}
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			h, tl, ok := nameEndParts(tc.file)
			if h != tc.head || tl != tc.tail || ok != tc.ok {
				t.Errorf("nameEndParts(%q) = %q, %q, %v; want %q, %q, %v", tc.file, h, tl, ok, tc.head, tc.tail, tc.ok)
			}
		})
	}
}
