/** Custom deployments of mcp-tasks assembled in a few lines from the core and chosen adapters (no {@code app}). */
package dev.mcptasks.examples;
