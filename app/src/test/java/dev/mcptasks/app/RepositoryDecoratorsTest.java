package dev.mcptasks.app;

import dev.mcptasks.testkit.contract.DecoratorShape;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The store decorators of {@code app} (the event log, the demo's audit, crash switch and staged pause) are
 * compositions of role wrappers, as the core's are ({@code RepositoryRolesTest}): none overrides a repository method
 * itself, and each wrapper declares no public method outside the roles it implements ({@link DecoratorShape}).
 */
class RepositoryDecoratorsTest {
    @Test
    void appDecoratorsWrapOnlyTheirRoles() throws Exception {
        for (String name : List.of("dev.mcptasks.app.assembly.EventLoggingRepository",
                "dev.mcptasks.app.demo.AuditingRepository", "dev.mcptasks.app.demo.CrashSwitchRepository",
                "dev.mcptasks.app.demo.PausedWorkerStage")) {
            DecoratorShape.assertComposedOfRoleWrappers(Class.forName(name));
        }
    }

    @Test
    void theEventLogPassesBatchesOnAsBatches() throws Exception {
        DecoratorShape.assertPassesBatchesOn(Class.forName("dev.mcptasks.app.assembly.EventLoggingRepository"));
    }
}
