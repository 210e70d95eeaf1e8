package main

import (
	"context"
	"errors"
)

func runCluster(ctx context.Context, m *Main, args []string) error {
	return errors.New("cluster: not implemented yet")
}
