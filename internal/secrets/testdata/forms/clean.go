package orders

// Total sums the line amounts of an order.
func Total(amounts []int) int {
	t := 0
	for _, a := range amounts {
		t += a
	}
	return t
}
