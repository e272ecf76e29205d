/**
 * OAuth 2.1 for HTTP MCP servers (MCP authorization, 2025-11-25): implements the {@code ports.auth} port
 * ({@link dev.mcptasks.ports.auth.HttpAuthorizers}) for the HTTP transports, and keeps tokens sealed in a
 * {@link dev.mcptasks.ports.auth.CredentialStore}.
 */
package dev.mcptasks.adapters.oauth;
