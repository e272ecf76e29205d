package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.audit.AuditQuery;
import dev.mcptasks.ports.audit.AuditRecord;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code audit [--task ID] [--principal P] [--limit N] [--json]}: who did what, newest first. */
@Command(name = "audit", description = "List recorded actions (submit, cancel, answer, purge), newest first.")
final class AuditCommand extends ClientCommand {
    @Option(names = "--task", paramLabel = "ID", description = "Only actions on this task.")
    String task;

    @Option(names = "--principal", paramLabel = "P", description = "Only actions of this principal.")
    String principal;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50",
            description = "At most N records (1 to 10000, default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--json", description = "Print a JSON array.")
    boolean json;

    @Override
    int run(Application app, AppConfig config, CliContext context) {
        if (limit < 1 || limit > AuditQuery.MAX_LIMIT) {
            context.err().println("mcp-tasks: --limit must be between 1 and " + AuditQuery.MAX_LIMIT + ", was "
                    + limit);
            return ExitCodes.USAGE;
        }
        List<AuditRecord> records = app.get(AuditLog.class).list(new AuditQuery(task == null ? null : TaskId.of(task),
                principal, limit));
        if (json) {
            var array = TaskJson.MAPPER.createArrayNode();
            for (AuditRecord record : records) {
                var node = array.addObject().put("sequence", record.sequence()).put("at", record.at().toString())
                        .put("principal", record.principal()).put("channel", record.channel().wireName())
                        .put("action", record.action().wireName());
                node.put("taskId", record.taskId() == null ? null : record.taskId().value());
                node.put("detail", record.detail());
            }
            context.out().println(TaskJson.write(array));
            return ExitCodes.OK;
        }
        TextTable table = new TextTable("AT", "PRINCIPAL", "CHANNEL", "ACTION", "TASK", "DETAIL");
        for (AuditRecord record : records) {
            table.row(record.at(), record.principal(), record.channel().wireName(), record.action().wireName(),
                    record.taskId() == null ? "-" : record.taskId().value(),
                    record.detail() == null ? "" : record.detail());
        }
        table.print(context.out());
        return ExitCodes.OK;
    }
}
