"""The MCP server: a project's translations as tools for AI agents, at /api/mcp."""
