package retrieval

import (
	"path"
	"regexp"
	"strings"
)

// Priors scale a file's fused score by what kind of file it is. A task
// prompt names behaviour, and behaviour lives in source: tests, docs and
// data files share the task's words but are rarely where the change goes.
// They stay in the ranking, just behind source files of similar strength.
// A changelog or release notes file holds every word of a vague subject
// ("Javadoc: Remove obsolete comments and clarify", "fix error message")
// and outscored the source file the change went to by more than the 0.6
// text prior made up for: 0.25 puts release notes behind the source that
// holds most of the words, while a file the prompt names or quotes still
// outranks any source file (measured on all seven sets, 0.6 -> 0.4 ->
// 0.25, every gold file that moved moved up: commons-lang R@20 0.688 ->
// 0.713, flask R@10 0.849 -> 0.887 and R@20 0.920 -> 0.945).
const (
	testPrior = 0.6
	textPrior = 0.25
)

// sourceExtensions are code without a tree-sitter grammar in the index;
// they rank as source, not as text.
var sourceExtensions = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`css scss sass less vue svelte rb rs kt kts swift php c h cc cpp hpp cs
		scala sql sh bash graphql gql proto hbs ejs erb dart lua ex exs clj elm`) {
		sourceExtensions["."+e] = true
	}
}

func prior(file, lang string, migrations bool) float64 {
	if isTestFile(file) {
		return testPrior
	}
	if !migrations && isMigration(file) {
		return migrationPrior
	}
	return sourcePrior(file, lang)
}

// sourcePrior is the prior of a file that is no test and no migration
// left behind: source 1, docs and other text textPrior.
func sourcePrior(file, lang string) float64 {
	if isDocSource(file) {
		return textPrior
	}
	if lang == "" && !sourceExtensions[strings.ToLower(path.Ext(file))] {
		return textPrior
	}
	return 1
}

// isTestFile recognises the common test naming conventions across
// ecosystems.
func isTestFile(file string) bool {
	dir, base := splitPath(file)
	if strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") || strings.Contains(base, "_test.") ||
		strings.HasPrefix(base, "test_") || strings.HasSuffix(strings.TrimSuffix(base, path.Ext(base)), "Test") {
		return true
	}
	for dir := range strings.SplitSeq(dir, "/") {
		switch dir {
		case "__tests__", "__mocks__", "test", "tests", "e2e", "fixtures", "__snapshots__":
			return true
		}
	}
	return false
}

// nameOnlyPrior scales the score of a file only its name speaks for: the
// path and symbol lanes found it (a folder, file or definition named like
// the task's words), anchors and scope placed it, and no lane found the
// task's words in its text, its history or the prompt's quotes. A file's
// name says what it is, not that the task changes it: over the seven sets
// (280 rows, 2026-12-02) such files held 571 of the first 20 places and 4
// gold files (0.7%), against 2.1% for the other files at places 11-20.
// Measured 0.7 and 0.5: at 0.5 commons-lang lost a gold file named by the
// prompt ("Range"), R@5 -0.026; the graph lane is evidence (a file the
// best hits import or use: outline's ImportTask.ts, passport.ts gold at
// 17th and 19th fell past 20 when it was not), and so is a file whose
// faint signals only add up (fuse). A variable so that a test can rank
// without it.
var nameOnlyPrior = 0.7

// nameOnly reports whether a file's contributing lanes are all lanes
// that read names (path, symbol) or only place it (anchor, scope).
func nameOnly(lanes []string) bool {
	if len(lanes) == 0 {
		return false
	}
	for _, l := range lanes {
		switch l {
		case "path", "symbol", "anchor", "scope":
		default:
			return false
		}
	}
	return true
}

// migrationPrior scales a schema migration's score unless the task is
// about migrations. A migration is a record of the past, like release
// notes: once applied to a database, editing it changes nothing there, so
// a change to the schema adds a new migration (no file of the tree yet)
// and a change to the code goes to the models and views. Yet a migration
// repeats the words of the models it altered ("add_api_key_scopes",
// "alter_channel_kind"), and in a Django or Sequelize app dozens of them
// took the pack's places: over the seven sets (2026-12-03, 280 rows)
// migrations held 94 of the first 20 places and no gold file, and none of
// the 40 files of any pack. At this prior (release notes' 0.25; 0.5
// measured the same) healthchecks' R@5 rose 0.581 -> 0.594 and R@20 0.803
// -> 0.818, no set lost. A sweep that touches old migrations ("Upgrade
// django-stubs") has nothing else to find them by either.
const migrationPrior = textPrior

// isMigration recognises the schema-migration layouts of the common
// frameworks: a migrations folder (Django, Alembic, Sequelize, Knex,
// TypeORM, Laravel, Ecto), Rails' db/migrate, Flyway's db/migration and
// its versioned scripts (V2_1__add_column.sql), Alembic's versions folder.
func isMigration(file string) bool {
	dir, base := splitPath(file)
	parent := ""
	for p := range strings.SplitSeq(dir, "/") {
		switch {
		case p == "migrations":
			return true
		case (p == "migrate" || p == "migration") && parent == "db":
			return true
		case p == "versions" && parent == "alembic":
			return true
		}
		parent = p
	}
	// The regexp only where its first and last letters could match: it
	// runs for every file of a corpus.
	return strings.HasPrefix(base, "V") && strings.HasSuffix(base, ".sql") && flywayScript.MatchString(base)
}

// flywayScript is Flyway's versioned-migration file name: V, a version of
// digits, dots and underscores, two underscores, a description.
var flywayScript = regexp.MustCompile(`^V\d[\d._]*__\w.*\.sql$`)

// migrationWords mark a task about migrations: then a migration is where
// the change goes ("squash the migrations", "fix the data migration").
var migrationWords = regexp.MustCompile(`(?i)\bmigrat`)

// asksForMigrations reports whether the task is about migrations.
func asksForMigrations(q Query) bool {
	return migrationWords.MatchString(q.Prompt + " " + strings.Join(q.Lexemes, " "))
}

// splitPath splits a corpus path (relative, clean, slash-separated) at its
// last slash without path.Dir's Clean: the kinds table asks it of every
// file of the corpus.
func splitPath(file string) (dir, base string) {
	i := strings.LastIndexByte(file, '/')
	if i < 0 {
		return "", file
	}
	return file[:i], file[i+1:]
}
