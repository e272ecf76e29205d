#!/usr/bin/env bash
# A browser for the conformance suite's authorization-code scenarios: mcp-tasks runs it (the server's auth.browser)
# with the authorization url as its last argument. It fetches the url and follows the redirects, as a browser of a
# person who always consents would: the test authorization server answers /authorize with a redirect to the
# redirect_uri, which is mcp-tasks' loopback listener, and that request completes the login.
set -euo pipefail
url=${*: -1}
exec curl -sS -L --max-redirs 10 --max-time 60 -o /dev/null "$url"
