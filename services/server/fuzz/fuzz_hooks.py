"""Schemathesis checks of the portal's own (loaded by services/server/fuzz/fuzz-api.ts)."""
import json
import os

import schemathesis

# "METHOD /path" of the operations anyone may call (the OpenAPI marks them `security: []`).
PUBLIC = set(filter(None, os.environ.get("FUZZ_PUBLIC_OPERATIONS", "").split("\n")))
# "METHOD /path" of the operations the fuzzing caller must be refused (a CPA and the firm imports).
REFUSED = set(filter(None, os.environ.get("FUZZ_REFUSED_OPERATIONS", "").split("\n")))
# The report types whose request items the fuzzing caller may see ("" for no such limit).
ITEM_REPORT_TYPES = {int(x) for x in os.environ.get("FUZZ_ITEM_REPORT_TYPES", "").split(",") if x}


def _operation(case):
    return f"{case.method.upper()} {case.operation.path}"


@schemathesis.check
def other_firm_refused(ctx, response, case):
    """A token of another firm reaches nothing of this firm: every protected call is refused."""
    if os.environ.get("FUZZ_EXPECT_REFUSAL") != "1":
        return
    if _operation(case) in PUBLIC:
        return
    if response.status_code not in (401, 403, 404):
        raise AssertionError(f"another firm's token got {response.status_code} from {_operation(case)}")


@schemathesis.check
def caller_refused(ctx, response, case):
    """The operations named in FUZZ_REFUSED_OPERATIONS refuse the fuzzing caller whatever the input."""
    if _operation(case) in REFUSED and response.status_code not in (401, 403, 404):
        raise AssertionError(f"the caller got {response.status_code} from {_operation(case)}, which must refuse them")


def _items(body):
    """Every document request item in an answer (a request, or a list of them)."""
    requests = body if isinstance(body, list) else [body]
    for r in requests:
        if isinstance(r, dict) and isinstance(r.get("items"), list):
            yield from (i for i in r["items"] if isinstance(i, dict) and "reportTypeId" in i)


@schemathesis.check
def no_foreign_items(ctx, response, case):
    """A caller limited to report types never reads a request item of another one (issue 38, M1)."""
    if not ITEM_REPORT_TYPES or response.status_code >= 300:
        return
    try:
        body = json.loads(response.content or b"null")
    except ValueError:
        return
    for item in _items(body):
        if item["reportTypeId"] is not None and item["reportTypeId"] not in ITEM_REPORT_TYPES:
            raise AssertionError(f"{_operation(case)} showed item {item.get('id')} of report type {item['reportTypeId']}")
