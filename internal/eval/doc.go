// Package eval measures retrieval quality: for each row of a development
// set it materialises a repository at the row's parent commit, asks an
// initializer for the context pack of the row's prompt, and scores the pack
// against the files the commit actually changed (recall@5/10/20 in pack
// order, full-pack recall and pack size).
package eval
