package dev.mcptasks.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.NotificationOutbox;
import dev.mcptasks.ports.repository.StoreScope;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRecords;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkerRegistry;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Decorators of the store are sized to their roles: a wrapper implements only the roles it changes and declares no
 * method outside them, and whatever wraps a whole repository is a {@link ComposedTaskRepository} (whose forwarding
 * is final), never a class forwarding every method by hand. Checked over the production classes of the core, the
 * ports, the testkit and the stores.
 */
class RepositoryRolesTest {
    private static final List<Class<?>> ROLES = List.of(TaskRecords.class, TaskClaims.class, NotificationOutbox.class,
            WorkerRegistry.class, StoreScope.class);

    private final List<Class<?>> production = importProduction();

    /** Names suffice to find the classes: skip resolving every referenced class (which takes many seconds). */
    private static List<Class<?>> importProduction() {
        ArchConfiguration configuration = ArchConfiguration.get();
        boolean resolve = configuration.resolveMissingDependenciesFromClassPath();
        configuration.setResolveMissingDependenciesFromClassPath(false);
        try {
            return new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("dev.mcptasks.core", "dev.mcptasks.ports", "dev.mcptasks.testkit",
                            "dev.mcptasks.adapters.sqlite", "dev.mcptasks.adapters.postgres")
                    .stream().map(JavaClass::reflect).toList();
        } finally {
            configuration.setResolveMissingDependenciesFromClassPath(resolve);
        }
    }

    @Test
    void theKnownDecoratorsAreComposedFromRoleWrappers() throws Exception {
        for (String name : List.of("dev.mcptasks.core.runtime.GroupCommittingRepository",
                "dev.mcptasks.core.runtime.ChangeAnnouncingRepository", "dev.mcptasks.core.metrics.MeteringRepository",
                "dev.mcptasks.core.secret.RedactingRepository",
                "dev.mcptasks.testkit.faults.FaultInjectingRepository")) {
            Class<?> decorator = Class.forName(name);
            assertThat(ComposedTaskRepository.class).as(name).isAssignableFrom(decorator);
            assertThat(repositoryMethods(decorator)).as("%s overrides no repository method itself", name).isEmpty();
            assertThat(roleWrappersIn(decorator)).as("%s wraps roles", name).isNotEmpty();
        }
    }

    @Test
    void aRoleWrapperDeclaresNoPublicMethodOutsideItsRoles() {
        List<Class<?>> wrappers = production.stream().filter(RepositoryRolesTest::isRoleWrapper).toList();

        assertThat(wrappers).as("the decorators' role wrappers are found").hasSizeGreaterThanOrEqualTo(10);
        for (Class<?> wrapper : wrappers) {
            Set<String> allowed = ROLES.stream().filter(role -> role.isAssignableFrom(wrapper))
                    .flatMap(role -> Arrays.stream(role.getMethods())).map(RepositoryRolesTest::signature)
                    .collect(Collectors.toSet());
            List<String> outside = Arrays.stream(wrapper.getDeclaredMethods())
                    .filter(method -> Modifier.isPublic(method.getModifiers()) && !method.isSynthetic()
                            && !Modifier.isStatic(method.getModifiers()))
                    .map(RepositoryRolesTest::signature).filter(signature -> !allowed.contains(signature)).toList();
            assertThat(outside).as("%s declares only methods of its roles", wrapper.getName()).isEmpty();
        }
    }

    @Test
    void noClassForwardsAWholeRepositoryByHand() {
        for (Class<?> type : production) {
            if (!TaskRepository.class.isAssignableFrom(type) || type.isInterface()
                    || ComposedTaskRepository.class.isAssignableFrom(type)) {
                continue;
            }
            // a whole store keeps its data (a pool, mappers, maps), never another repository or role to forward to
            List<String> wrapped = fields(type).filter(field -> isRepositoryType(field.getType()))
                    .map(Field::getName).toList();
            assertThat(wrapped).as("%s implements every role: a store, not a decorator", type.getName()).isEmpty();
        }
    }

    private static boolean isRoleWrapper(Class<?> type) {
        return !type.isInterface() && !TaskRepository.class.isAssignableFrom(type)
                && ROLES.stream().anyMatch(role -> role.isAssignableFrom(type));
    }

    private static boolean isRepositoryType(Class<?> type) {
        return TaskRepository.class.isAssignableFrom(type) || ROLES.contains(type);
    }

    /** The methods of {@link TaskRepository} that {@code type} declares itself. */
    private static List<String> repositoryMethods(Class<?> type) {
        Set<String> repository = Arrays.stream(TaskRepository.class.getMethods()).map(RepositoryRolesTest::signature)
                .collect(Collectors.toSet());
        return Arrays.stream(type.getDeclaredMethods()).map(RepositoryRolesTest::signature)
                .filter(repository::contains).toList();
    }

    /** The role wrappers nested in {@code type}. */
    private static List<Class<?>> roleWrappersIn(Class<?> type) {
        return Arrays.stream(type.getDeclaredClasses()).filter(RepositoryRolesTest::isRoleWrapper).toList();
    }

    private static Stream<Field> fields(Class<?> type) {
        Stream<Field> own = Arrays.stream(type.getDeclaredFields());
        return type.getSuperclass() == null ? own : Stream.concat(own, fields(type.getSuperclass()));
    }

    private static String signature(Method method) {
        return method.getName() + Arrays.toString(method.getParameterTypes());
    }
}
