"""test_docs.py - runs every example request of docs/server.md, in order, and checks the documented answer.

A documented answer lists a subset of the real one: every key it shows must
be there with that value, "..." stands for any value, and "{name}" captures
a value (an id, a token) for the requests after it."""
import json
import os
import re

import httpx

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "server.md")


def examples():
    text = open(DOC, encoding="utf-8").read()
    blocks = re.findall(r"```http\n(.*?)```", text, re.S)
    pairs = []
    for block in blocks:
        if block.startswith("HTTP/1.1"):
            assert pairs and pairs[-1][1] is None, "an answer without its request"
            pairs[-1] = (pairs[-1][0], block)
        else:
            pairs.append((block, None))
    assert all(answer for _, answer in pairs), "a request without its answer"
    return pairs


def substitute(text, names):
    return re.sub(r"\{(\w+)\}", lambda m: names[m.group(1)], text)


def match(doc, real, names, where="answer"):
    if doc == "...":
        return
    if isinstance(doc, str) and re.fullmatch(r"\{(\w+)\}", doc):
        key = doc[1:-1]
        if key in names:
            assert real == names[key], f"{where}: {real!r} is not {key} = {names[key]!r}"
        else:
            names[key] = real
        return
    if isinstance(doc, dict):
        assert isinstance(real, dict), f"{where}: {real!r} is not an object"
        for k, v in doc.items():
            assert k in real, f"{where}: no key {k!r} in {real!r}"
            match(v, real[k], names, f"{where}.{k}")
        return
    if isinstance(doc, list) and doc and doc[-1] == "...":
        assert isinstance(real, list) and len(real) >= len(doc) - 1, f"{where}: {real!r}"
        for i, v in enumerate(doc[:-1]):
            match(v, real[i], names, f"{where}[{i}]")
        return
    assert doc == real, f"{where}: documented {doc!r}, served {real!r}"


def split_http(block):
    head, _, body = block.partition("\n\n")
    lines = [line for line in head.split("\n") if line]
    return lines[0], dict(line.split(": ", 1) for line in lines[1:]), body.strip()


def run_stream(server, path, headers, answer_body):
    want = answer_body.count("\n\n") + 1
    got, pending = [], b""
    with httpx.stream("GET", server.url + path, headers=headers, timeout=60) as r:
        for chunk in r.iter_raw():
            pending += chunk
            while b"\n\n" in pending and len(got) < want:
                event, pending = pending.split(b"\n\n", 1)
                if not event.startswith(b":"):
                    got.append(event.decode())
            if len(got) >= want:
                break
    return r.status_code, "\n\n".join(got)


def test_every_documented_example(server):
    names = {}
    pairs = examples()
    assert len(pairs) >= 15
    for request, answer in pairs:
        first, headers, body = split_http(substitute(request, names))
        method, path = first.split(" ", 1)
        status_line, answer_headers, answer_body = split_http(answer)
        status = int(status_line.split()[1])
        if answer_headers.get("Content-Type") == "text/event-stream":
            real_status, text = run_stream(server, path, headers, answer_body)
            assert real_status == status
            assert text == answer_body.strip(), f"{first}: stream {text!r}"
            continue
        r = httpx.request(method, server.url + path, headers=headers,
                          content=body.encode() if body else None, timeout=10)
        assert r.status_code == status, f"{first}: {r.status_code} {r.text}"
        if answer_headers.get("Content-Type", "").startswith("text/plain"):
            assert r.text == substitute(answer_body, names) + "\n", f"{first}: {r.text!r}"
        else:
            documented = json.loads(answer_body)
            if path == "/api/health" and hasattr(server, "nodes"):
                # Several nodes: each holds the games it served and has not
                # let go yet, so the count is the one node's that answered.
                documented["games"] = "..."
            match(documented, r.json(), names, first)
