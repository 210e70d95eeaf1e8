// Package privatetmp points TMPDIR, for a while, at a fresh folder of the
// process's own, and then removes that folder with what it holds. It is
// how tether-beam and the beam module's tests remove the empty
// "beamloopbackworker-N" file that Beam's Go SDK (v2.77.0) leaves in
// os.TempDir() at every pipeline run in loopback mode, Prism's default:
// runnerlib.Execute creates it with os.CreateTemp as a stand-in worker
// binary (loopback mode runs none; the file is only hashed and staged),
// then neither removes it nor closes it, and tells its name to no caller.
// No option of Beam's avoids it or moves it elsewhere than os.TempDir().
//
// Only this process, and the processes it starts, know the folder, so no
// other process's file is ever removed; nothing is removed by a name's
// prefix.
package privatetmp

import (
	"fmt"
	"os"
)

// Enter makes a new folder in os.TempDir() (TMPDIR, else /tmp), sets
// TMPDIR to it, and returns leave, which sets TMPDIR back (unsets it when
// it was unset) and removes the folder with everything in it: the
// temporary files this process, and the processes it started, made in
// os.TempDir() meanwhile, Beam's loopback worker files among them. TMPDIR
// belongs to the process: calls nest (call each leave once, the last
// Enter's first), and no other goroutine may rely on os.TempDir()
// between Enter and leave. Errors name the folder. Cost: a folder made,
// then removed with its files.
func Enter() (leave func() error, err error) {
	old, had := os.LookupEnv("TMPDIR")
	dir, err := os.MkdirTemp("", "tether-beam-")
	if err != nil {
		return nil, fmt.Errorf("making a temporary folder: %w", err)
	}
	if err := os.Setenv("TMPDIR", dir); err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("setting TMPDIR to the temporary folder %s: %w", dir, err)
	}
	return func() error {
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("removing the temporary folder %s: %w", dir, err)
		}
		return nil
	}, nil
}

// Run calls run between Enter and its leave and returns run's result, an
// exit code, as a TestMain passes it to os.Exit: 1 when Enter fails (run
// is then not called), at least 1 when leave does; either error is
// printed on standard error. It is how the beam module's TestMains keep
// the loopback files of their pipelines out of the shared temporary
// folder.
func Run(run func() int) int {
	leave, err := Enter()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	code := run()
	if err := leave(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = max(code, 1)
	}
	return code
}
