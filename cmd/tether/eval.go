package main

import (
	"context"
	"errors"
)

func runEval(ctx context.Context, m *Main, args []string) error {
	return errors.New("eval: not implemented yet")
}
