package main

import "example.com/ledger/internal/ledger"

func main() {
	var l ledger.Ledger
	_ = l.Post(nil)
}
