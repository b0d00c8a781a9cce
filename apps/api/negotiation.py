from rest_framework.negotiation import BaseContentNegotiation


class JSONOnlyNegotiation(BaseContentNegotiation):
    """The Platform API answers JSON whatever the Accept header says."""

    def select_parser(self, request, parsers):
        for parser in parsers:
            if request.content_type.split(";")[0].strip().lower() == parser.media_type:
                return parser
        return None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type
