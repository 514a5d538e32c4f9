// Package retrieval ranks workspace files for a task: it turns a prompt and
// lexemes into the ordered file list a context pack holds.
//
// Ranking fuses lanes, each a general signal rather than a fit to one
// repository: identifier-aware BM25 over file contents ("lexical"), query
// terms in the file's path ("path"), definitions whose names match the query
// ("symbol"), a personalised PageRank over the import/reference graph seeded
// by the strongest hits, as Aider's repo map does ("graph"), and domain
// anchors, so files beside the strong hits come before distant look-alikes
// ("anchor"). Callers add the lanes that live elsewhere (policy, artifact,
// memory, and the history's ticket, recent and similar lanes: SideLanes)
// with Boost.
package retrieval
