package main

import (
	"context"
	"errors"
)

func runGen(ctx context.Context, m *Main, args []string) error {
	return errors.New("gen: not implemented yet")
}
