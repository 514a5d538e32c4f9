// Package eval measures retrieval quality: for each row of a development
// set it materialises a repository at the row's parent commit, asks an
// initializer for the context pack of the row's prompt, and scores the pack
// against the files the commit actually changed (recall@5/10/20 in pack
// order, full-pack recall and pack size), per repository and next to a
// plain BM25 reference computed on the same tree. Mine builds such sets
// from any repository's history, so no single set is tuned on.
package eval
