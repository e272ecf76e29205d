package dev.mcptasks.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.testkit.contract.DecoratorShape;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Decorators of the store are sized to their roles ({@link DecoratorShape}): a wrapper implements only the roles it
 * changes and declares no method outside them, and whatever wraps a whole repository is a
 * {@link ComposedTaskRepository} that overrides no call, never a class forwarding every method by hand. Checked over
 * the production classes of the core, the ports, the testkit and the stores.
 */
class RepositoryRolesTest {
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
            DecoratorShape.assertComposedOfRoleWrappers(Class.forName(name));
        }
    }

    @Test
    void theStoreChainsDecoratorsPassBatchesOnAsBatches() throws Exception {
        // the group commit sits above them and hands each batch to the chain below it as one call
        for (String name : List.of("dev.mcptasks.core.runtime.ChangeAnnouncingRepository",
                "dev.mcptasks.core.metrics.MeteringRepository", "dev.mcptasks.core.secret.RedactingRepository")) {
            DecoratorShape.assertPassesBatchesOn(Class.forName(name));
        }
    }

    @Test
    void aRoleWrapperDeclaresNoPublicMethodOutsideItsRoles() {
        List<Class<?>> wrappers = production.stream().filter(DecoratorShape::isRoleWrapper).toList();

        assertThat(wrappers).as("the decorators' role wrappers are found").hasSizeGreaterThanOrEqualTo(10);
        wrappers.forEach(DecoratorShape::assertWrapsOnlyItsRoles);
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

    private static boolean isRepositoryType(Class<?> type) {
        return TaskRepository.class.isAssignableFrom(type) || DecoratorShape.ROLES.contains(type);
    }

    private static Stream<Field> fields(Class<?> type) {
        Stream<Field> own = Arrays.stream(type.getDeclaredFields());
        return type.getSuperclass() == null ? own : Stream.concat(own, fields(type.getSuperclass()));
    }
}
