"""Rendering of template and message text: Django's template language in a sandbox.

A standalone `Engine` (not the project's template backend) whose only built-in library holds a short list of
harmless tags and filters: no `{% load %}` (no other library can be reached), no `{% include %}`/`{% extends %}`
(no loaders, no files), no `{% url %}`, `{% debug %}`, `{% csrf_token %}`, `{% now %}` (nothing of the settings or
the URL map), no loops (`{% for %}`, `{% lorem %}`, `{% widthratio %}` could multiply a short text into a huge one).
The context holds only the variables given (strings); Django refuses `_`-prefixed attribute lookups, so a
placeholder cannot climb from a string to its class. E-mail bodies are HTML and rendered with autoescape on, so a
contact's name cannot inject markup; SMS text and e-mail subjects are plain text.
"""

from django.template import Context, Engine, Library, TemplateSyntaxError, defaultfilters, defaulttags
from django.template.base import FilterExpression, Lexer, TokenType, Variable, VariableNode
from django.template.defaulttags import FirstOfNode, IfNode

ALLOWED_TAGS = ("if", "firstof", "comment", "verbatim", "spaceless")
# Closing and intermediate parts of the allowed tags (the lexer sees them as tags of their own).
TAG_PARTS = ("elif", "else", "endif", "endcomment", "endverbatim", "endspaceless")
ALLOWED_FILTERS = (
    "default",
    "default_if_none",
    "upper",
    "lower",
    "title",
    "capfirst",
    "cut",
    "truncatechars",
    "truncatewords",
    "linebreaks",
    "linebreaksbr",
    "striptags",
    "urlencode",
    "escape",
    "yesno",
    "length",
    "first",
    "last",
    "pluralize",
)

SANDBOX = Library()
for _name in ALLOWED_TAGS:
    SANDBOX.tags[_name] = defaulttags.register.tags[_name]
for _name in ALLOWED_FILTERS:
    SANDBOX.filters[_name] = defaultfilters.register.filters[_name]


class SandboxEngine(Engine):
    """An engine with no default libraries, no loaders and no context processors: only `SANDBOX`."""

    default_builtins = []

    def __init__(self):
        super().__init__(dirs=[], app_dirs=False, loaders=[], libraries={}, builtins=[], string_if_invalid="")
        self.template_builtins = [SANDBOX]


ENGINE = SandboxEngine()
TAG_LIST = ", ".join(f"`{{% {name} %}}`" for name in ALLOWED_TAGS)


class TemplateError(ValueError):
    """The text is not a valid sandboxed template; the message says why, for the user who wrote it."""


def _check_tags(source: str) -> None:
    for token in Lexer(source).tokenize():
        if token.token_type != TokenType.BLOCK:
            continue
        parts = token.split_contents()
        name = parts[0] if parts else ""
        if not name:
            raise TemplateError(f"An empty `{{% %}}` tag is not allowed (line {token.lineno}).")
        if name not in ALLOWED_TAGS and name not in TAG_PARTS:
            raise TemplateError(
                f"`{{% {name} %}}` is not allowed (line {token.lineno}); the tags available are {TAG_LIST}."
            )


def compile_template(source: str):
    """The compiled template of `source`; `TemplateError` when it uses a tag or filter the sandbox does not offer
    or has a syntax error."""
    _check_tags(source)
    try:
        return ENGINE.from_string(source)
    except TemplateSyntaxError as exc:
        raise TemplateError(f"Template syntax error: {exc}") from None
    except RecursionError:
        raise TemplateError("The template nests too deeply.") from None


def _names_of(expression) -> list[str]:
    """The variable names a filter expression (or an `{% if %}` condition) reads: `contact.name|default:x` reads
    `contact` and `x`."""
    if isinstance(expression, FilterExpression):
        names = []
        if isinstance(expression.var, Variable) and expression.var.lookups:
            names.append(expression.var.lookups[0])
        for _, arguments in expression.filters:
            for is_variable, argument in arguments:
                if is_variable and isinstance(argument, Variable) and argument.lookups:
                    names.append(argument.lookups[0])
        return names
    names = []
    for part in ("value", "first", "second"):  # `if` conditions: literals and operators of django.template.smartif
        child = getattr(expression, part, None)
        if child is not None:
            names += _names_of(child)
    return names


def _nodes(nodelist):
    for node in nodelist:
        yield node
        if isinstance(node, IfNode):
            for _, child in node.conditions_nodelists:
                yield from _nodes(child)
        else:
            for attribute in node.child_nodelists:
                child = getattr(node, attribute, None)
                if child:
                    yield from _nodes(child)


def variables_of(*sources: str | None) -> list[str]:
    """The variable names the texts read (`{{ name }}`, filter arguments, `{% if %}` conditions, `{% firstof %}`),
    in order of first appearance. Raises `TemplateError` like `compile_template`."""
    names: list[str] = []
    for source in sources:
        if not source:
            continue
        for node in _nodes(compile_template(source).nodelist):
            if isinstance(node, VariableNode):
                found = _names_of(node.filter_expression)
            elif isinstance(node, IfNode):
                found = [name for condition, _ in node.conditions_nodelists for name in _names_of(condition)]
            elif isinstance(node, FirstOfNode):
                found = [name for expression in node.vars for name in _names_of(expression)]
            else:
                found = []
            for name in found:
                if name not in names:
                    names.append(name)
    return names


def render(template, variables: dict, *, autoescape: bool) -> str:
    """`template` (compiled) rendered with only `variables`; HTML-escaped values when `autoescape`."""
    return template.render(Context(dict(variables), autoescape=autoescape))
