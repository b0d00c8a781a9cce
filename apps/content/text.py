"""Text rules of content items: slugs derived from titles, HTML sanitized with nh3, and the block-editor document
(an Editor.js-like `{blocks: [{type, data}]}`) validated against a JSON Schema and its inline markup sanitized.

Pure functions (no database): the services and the input serializers call them.
"""

import functools

import nh3

from apps.api.fields import json_size

SLUG_MAX_LENGTH = 200


def sanitize_html(html: str) -> str:
    """Rich text as customers may publish it: scripts, event handlers, styles and unsafe URLs removed (nh3's
    defaults, ammonia's safe list); links get `rel="noopener noreferrer"`."""
    return nh3.clean(html)


# Inline markup a block's text may carry (bold, italic, links, inline code, ...); everything else is removed.
INLINE_TAGS = {"a", "b", "strong", "i", "em", "u", "s", "mark", "code", "br", "sub", "sup"}
INLINE_ATTRIBUTES = {"a": {"href", "title"}}


def sanitize_inline(text: str) -> str:
    return nh3.clean(text, tags=INLINE_TAGS, attributes=INLINE_ATTRIBUTES)


BLOCKS_MAX_BYTES = 256 * 1024
BLOCKS_MAX_COUNT = 1000
TEXT_MAX = 20000
HTTPS_URL = {"type": "string", "pattern": r"^https://[^\s/?#]+[^\s]*$", "maxLength": 2048}
TEXT = {"type": "string", "maxLength": TEXT_MAX}
SHORT_TEXT = {"type": "string", "maxLength": 1000}


def _data(properties: dict, required: list[str]) -> dict:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


# The block types and the `data` each carries. Strings marked inline may hold INLINE_TAGS markup.
BLOCK_DATA = {
    "paragraph": _data({"text": TEXT}, ["text"]),
    "header": _data({"text": SHORT_TEXT, "level": {"type": "integer", "minimum": 1, "maximum": 6}}, ["text", "level"]),
    "list": _data(
        {
            "style": {"enum": ["ordered", "unordered"]},
            "items": {"type": "array", "items": TEXT, "maxItems": 500},
        },
        ["style", "items"],
    ),
    "quote": _data({"text": TEXT, "caption": SHORT_TEXT}, ["text"]),
    "image": _data({"url": HTTPS_URL, "caption": SHORT_TEXT, "alt": SHORT_TEXT}, ["url"]),
    "code": _data({"code": TEXT, "language": {"type": "string", "maxLength": 40}}, ["code"]),
    "delimiter": _data({}, []),
    "table": _data(
        {
            "withHeadings": {"type": "boolean"},
            "content": {
                "type": "array",
                "maxItems": 200,
                "items": {"type": "array", "maxItems": 30, "items": SHORT_TEXT},
            },
        },
        ["content"],
    ),
}
BLOCK_TYPES = tuple(BLOCK_DATA)

BLOCK_DOCUMENT_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["blocks"],
    "additionalProperties": False,
    "properties": {
        "time": {"type": "integer", "minimum": 0},
        "version": {"type": "string", "maxLength": 40},
        "blocks": {
            "type": "array",
            "maxItems": BLOCKS_MAX_COUNT,
            "items": {
                "type": "object",
                "required": ["type", "data"],
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "string", "maxLength": 64},
                    "type": {"enum": list(BLOCK_TYPES)},
                    "data": {"type": "object"},
                },
                "allOf": [
                    {"if": {"properties": {"type": {"const": name}}}, "then": {"properties": {"data": schema}}}
                    for name, schema in BLOCK_DATA.items()
                ],
            },
        },
    },
}


@functools.cache
def _validator():
    # jsonschema (with its metaschemas) costs a web worker ~5 MB: loaded by the first write that validates blocks.
    from jsonschema import Draft202012Validator

    return Draft202012Validator(BLOCK_DOCUMENT_SCHEMA)


MAX_REPORTED_ERRORS = 10

BLOCKS_HELP = (
    "A block-editor document `{blocks: [{id?, type, data}], time?, version?}` (Editor.js style). Block types and "
    "their `data`: `paragraph {text}`, `header {text, level 1-6}`, `list {style: ordered|unordered, items}`, "
    "`quote {text, caption?}`, `image {url (https), caption?, alt?}`, `code {code, language?}`, `delimiter {}`, "
    "`table {content: string[][], withHeadings?}`. Text may carry inline markup (b, i, u, s, a, code, mark, br, "
    f"sub, sup), sanitized on write. At most {BLOCKS_MAX_COUNT} blocks and {BLOCKS_MAX_BYTES} bytes as JSON."
)


def _path(error) -> str:
    path = ""
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "(document)"


def block_document_errors(document) -> list[str]:
    """Messages for what is wrong with `document` (empty when it is a valid block document)."""
    if json_size(document) > BLOCKS_MAX_BYTES:
        return [f"Must be at most {BLOCKS_MAX_BYTES} bytes as JSON."]
    errors = sorted(_validator().iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
    return [f"{_path(e)}: {e.message[:200]}" for e in errors[:MAX_REPORTED_ERRORS]]


_INLINE_FIELDS = {"paragraph": ("text",), "header": ("text",), "quote": ("text", "caption"), "image": ("caption",)}


def sanitize_blocks(document: dict) -> dict:
    """A copy of a valid block document with the inline markup of its text sanitized."""
    blocks = []
    for block in document["blocks"]:
        data = dict(block["data"])
        for name in _INLINE_FIELDS.get(block["type"], ()):
            if name in data:
                data[name] = sanitize_inline(data[name])
        if block["type"] == "list":
            data["items"] = [sanitize_inline(item) for item in data["items"]]
        elif block["type"] == "table":
            data["content"] = [[sanitize_inline(cell) for cell in row] for row in data["content"]]
        blocks.append({**block, "data": data})
    return {**document, "blocks": blocks}
