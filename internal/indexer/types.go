package indexer

// Options configures an Index.
type Options struct {
	// Root is the absolute workspace root. Required.
	Root string
	// MaxFileBytes skips (and reports) larger files. Default 1 MiB.
	MaxFileBytes int64
	// Exclude holds extra gitignore-style patterns, applied after the
	// defaults and the workspace's .gitignore files.
	Exclude []string
	// Workers bounds parallel parsing. Default: GOMAXPROCS.
	Workers int
	// CountsFromStore is for a process that only refreshes the index and
	// reports its Summary (mcpc index): the summary's symbol, edge and
	// usage counts then come from the database (see lazy.go) and the
	// tree's facts are never read into memory. Otherwise Refresh builds
	// the view the process will query anyway and counts from it.
	CountsFromStore bool
	// Watch is for a long-lived process (serve): it watches the tree's
	// directories (fswatch) and walks only those that changed since its
	// last refresh, and nothing when none did. Close stops the watcher.
	Watch bool
	// WalkAtOpen is for a watching process that refreshes at start (serve
	// without --no-warm): Open begins the first walk before it reads the
	// stamps, and the first Refresh takes its listings (walkEarly).
	WalkAtOpen bool
	// ViewCache is a file in which a process that built a view stores it,
	// and from which a new process with the same files reads it back
	// instead of building its first view (viewcache.go). Default "": none.
	ViewCache string
}

// DefaultMaxFileBytes is the size above which files are skipped.
const DefaultMaxFileBytes = 1 << 20

// Symbol is a definition header: enough to cite and locate, never a body.
type Symbol struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	File      string `json:"file"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	Exported  bool   `json:"exported"`
	Container string `json:"container,omitempty"`
}

// Edge links two workspace files. Kind is one of "import", "reference",
// "template", "route", "declaration", "renderer", "federation", "style".
type Edge struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Kind   string `json:"kind"`
	Symbol string `json:"symbol,omitempty"`
}

// Usage is one occurrence of a custom element in a template.
type Usage struct {
	Tag       string `json:"tag"`
	File      string `json:"file"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	// Attrs is a compressed attribute/binding summary, e.g.
	// "[rowData] (rowClicked) *ngIf class".
	Attrs string `json:"attrs,omitempty"`
	// Anchor is the domain anchor: the folder path up to three levels.
	Anchor string `json:"anchor"`
}

// Problem kinds reported in Summary.Problems and ParseFailures.
const (
	ProblemParseError  = "parse_error"
	ProblemBinary      = "binary"
	ProblemTooLarge    = "too_large"
	ProblemNotUTF8     = "not_utf8"
	ProblemUnreadable  = "unreadable"
	ProblemSymlinkLoop = "symlink_loop"
	ProblemSymlink     = "symlink"
	ProblemVanished    = "vanished"
)

// Problem is a file the index skipped or could not parse cleanly.
type Problem struct {
	File    string `json:"file"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Summary reports one Refresh.
type Summary struct {
	Files       int       `json:"files"`
	Symbols     int       `json:"symbols"`
	Edges       int       `json:"edges"`
	Usages      int       `json:"usages"`
	ParseErrors int       `json:"parseErrors"`
	Skipped     int       `json:"skipped"`
	Reparsed    int       `json:"reparsed"`
	Removed     int       `json:"removed"`
	Seconds     float64   `json:"seconds"`
	Problems    []Problem `json:"problems,omitempty"`
}

// rawRef is an unresolved edge as a parser sees it: a module specifier, a
// relative path, a symbol name or an element selector. References are
// resolved against the whole file set after every load or refresh, because
// their targets may appear or vanish independently of the referring file.
type rawRef struct {
	Kind   string // edge kind
	Target string
	// By says how Target is resolved: "module" (TS/JS specifier), "path"
	// (file path relative to the referrer), "symbol" (definition name),
	// "selector" (Angular element selector), "gopkg", "pymodule", "javaclass".
	By     string
	Symbol string
}

// fileFacts is everything the index keeps about one file.
type fileFacts struct {
	Path       string
	Hash       string
	Size       int64
	ModTime    int64
	Lang       string
	ParseError string
	Symbols    []Symbol
	Refs       []rawRef
	Usages     []Usage
	// Terms are identifier-aware term counts of the file's content, kept
	// encoded (see termBlob): a map per file cost most of a large index's
	// memory, and the blob is what the database stores anyway.
	Terms  termBlob
	Length int32
	// refsUnread: Refs were dropped and are in the database (refsondisk.go).
	refsUnread bool
}

// stamp is f without its facts: what an index that has not loaded them
// keeps of a file.
func (f *fileFacts) stamp() *fileFacts {
	return &fileFacts{Path: f.Path, Hash: f.Hash, Size: f.Size, ModTime: f.ModTime, Lang: f.Lang, ParseError: f.ParseError, Length: f.Length}
}
