package main

import (
	"context"
	"errors"
)

func runMethods(ctx context.Context, m *Main, args []string) error {
	return errors.New("methods: not implemented yet")
}
