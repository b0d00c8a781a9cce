from django.apps import AppConfig


class McpConfig(AppConfig):
    name = "apps.mcp"
    verbose_name = "MCP server"
