// Package e2e holds tether serve's end-to-end browser test. It is a module
// of its own so that the core module does not depend on chromedp.
//
//	cd e2e && go test ./...                      # needs Debian's chromium
//	cd e2e && go test ./... -screenshot ../docs/serve.png
package e2e
