"""Schemathesis checks of the portal's own (loaded by services/server/fuzz/fuzz-api.ts)."""
import os

import schemathesis

# "METHOD /path" of the operations anyone may call (the OpenAPI marks them `security: []`).
PUBLIC = set(filter(None, os.environ.get("FUZZ_PUBLIC_OPERATIONS", "").split("\n")))


@schemathesis.check
def other_firm_refused(ctx, response, case):
    """A token of another firm reaches nothing of this firm: every protected call is refused."""
    if os.environ.get("FUZZ_EXPECT_REFUSAL") != "1":
        return
    if f"{case.method.upper()} {case.operation.path}" in PUBLIC:
        return
    if response.status_code not in (401, 403, 404):
        raise AssertionError(f"another firm's token got {response.status_code} from {case.method.upper()} {case.operation.path}")
