package dev.mcptasks.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.NotificationOutbox;
import dev.mcptasks.ports.repository.StoreScope;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRecords;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkerRegistry;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The store decorators of {@code app} (the event log, the demo's audit, crash switch and staged pause) are
 * compositions of role wrappers, as the core's are ({@code RepositoryRolesTest}): none overrides a repository method
 * itself, and each wrapper declares no public method outside the roles it implements.
 */
class RepositoryDecoratorsTest {
    private static final List<Class<?>> ROLES = List.of(TaskRecords.class, TaskClaims.class, NotificationOutbox.class,
            WorkerRegistry.class, StoreScope.class);

    @Test
    void appDecoratorsWrapOnlyTheirRoles() throws Exception {
        for (String name : List.of("dev.mcptasks.app.assembly.EventLoggingRepository",
                "dev.mcptasks.app.demo.AuditingRepository", "dev.mcptasks.app.demo.CrashSwitchRepository",
                "dev.mcptasks.app.demo.PausedWorkerStage")) {
            Class<?> decorator = Class.forName(name);
            assertThat(ComposedTaskRepository.class).as(name).isAssignableFrom(decorator);
            Set<String> repository = signatures(TaskRepository.class.getMethods());
            assertThat(Arrays.stream(decorator.getDeclaredMethods()).map(RepositoryDecoratorsTest::signature))
                    .as("%s overrides no repository method itself", name).noneMatch(repository::contains);
            List<Class<?>> wrappers = Arrays.stream(decorator.getDeclaredClasses())
                    .filter(type -> ROLES.stream().anyMatch(role -> role.isAssignableFrom(type))).toList();
            assertThat(wrappers).as("%s wraps roles", name).isNotEmpty();
            for (Class<?> wrapper : wrappers) {
                assertThat(TaskRepository.class.isAssignableFrom(wrapper)).as(wrapper.getName()).isFalse();
                Set<String> allowed = ROLES.stream().filter(role -> role.isAssignableFrom(wrapper))
                        .flatMap(role -> Arrays.stream(role.getMethods())).map(RepositoryDecoratorsTest::signature)
                        .collect(Collectors.toSet());
                assertThat(Arrays.stream(wrapper.getDeclaredMethods())
                        .filter(method -> Modifier.isPublic(method.getModifiers()) && !method.isSynthetic())
                        .map(RepositoryDecoratorsTest::signature))
                        .as("%s declares only methods of its roles", wrapper.getName()).allMatch(allowed::contains);
            }
        }
    }

    private static Set<String> signatures(Method[] methods) {
        return Arrays.stream(methods).map(RepositoryDecoratorsTest::signature).collect(Collectors.toSet());
    }

    private static String signature(Method method) {
        return method.getName() + Arrays.toString(method.getParameterTypes());
    }
}
