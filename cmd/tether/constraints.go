package main

import (
	"context"
	"errors"
)

func runConstraints(ctx context.Context, m *Main, args []string) error {
	return errors.New("constraints: not implemented yet")
}
