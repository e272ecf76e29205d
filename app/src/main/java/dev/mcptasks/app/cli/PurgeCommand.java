package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.HumanDuration;
import dev.mcptasks.core.retention.Purger;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.audit.AuditAction;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code purge --older-than D [--status S] [--dry-run]}: deletes finished tasks that finished more than D ago, in the
 * workers' paced batches, and prints how many; {@code --dry-run} only counts. Tasks that are not finished are never
 * deleted. The purge is recorded in the audit log under the operator.
 */
@Command(name = "purge", description = "Delete finished tasks older than a given age (or count them).")
final class PurgeCommand extends ClientCommand {
    @Option(names = "--older-than", required = true, paramLabel = "D", converter = DurationConverter.class,
            description = "Age since the task finished: a whole number and a unit (ms, s, m, h, d, w), e.g. 7d.")
    Duration olderThan;

    @Option(names = "--status", paramLabel = "S", converter = FinishedStatusConverter.class,
            description = "Only this finished status: completed, failed or cancelled (default: all three).")
    TaskStatus status;

    @Option(names = "--dry-run", description = "Print how many tasks would be deleted; delete nothing.")
    boolean dryRun;

    @Override
    int run(Application app, AppConfig config, CliContext context) throws InterruptedException {
        Set<TaskStatus> statuses = status == null ? EnumSet.copyOf(TaskStatus.TERMINAL) : EnumSet.of(status);
        Purger purger = app.get(Purger.class);
        String what = (status == null ? "finished" : status.wireName()) + " tasks older than "
                + HumanDuration.format(olderThan);
        if (dryRun) {
            context.out().println("would purge " + purger.count(statuses, olderThan) + " " + what);
            return ExitCodes.OK;
        }
        long deleted = purger.purge(statuses, olderThan);
        app.get(TaskService.class).auditTrail().record(null, AuditAction.PURGE, null,
                deleted + " " + what);
        context.out().println("purged " + deleted + " " + what);
        return ExitCodes.OK;
    }

    /** Reads {@code --older-than}; a bad value is a usage error naming it. */
    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return HumanDuration.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** Reads {@code --status}: a finished status only. */
    static final class FinishedStatusConverter implements ITypeConverter<TaskStatus> {
        @Override
        public TaskStatus convert(String value) {
            for (TaskStatus candidate : TaskStatus.TERMINAL) {
                if (candidate.wireName().equals(value)) {
                    return candidate;
                }
            }
            throw new TypeConversionException("'" + value + "' is not a finished status: completed, failed or"
                    + " cancelled");
        }
    }
}
