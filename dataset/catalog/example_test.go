package catalog_test

import (
	"fmt"

	"github.com/tether-sc/tether/dataset/catalog"
)

func ExampleNames() {
	fmt.Println(len(catalog.Names()), catalog.Names()[:3])
	// Output:
	// 23 [breast-tissue classic3 glass]
}

func ExampleLookup() {
	e, _ := catalog.Lookup("hepatitis")
	fmt.Println(e.Files, e.N, e.K)
	// Output:
	// [hepatitis/hepatitis.data] 80 2
}
