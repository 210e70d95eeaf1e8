package experiment

// heldIf is the verdict every reproduction page writes beside a published
// claim: "**held**" when ok, "**not held**" otherwise.
func heldIf(ok bool) string {
	if ok {
		return "**held**"
	}
	return "**not held**"
}
