package main

import (
	"context"
	"errors"
)

func runDemo(ctx context.Context, m *Main, args []string) error {
	return errors.New("demo: not implemented yet")
}
