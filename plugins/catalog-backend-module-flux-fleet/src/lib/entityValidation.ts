import {
  componentEntityV1alpha1Validator,
  DefaultNamespaceEntityPolicy,
  Entity,
  EntityPolicies,
  FieldFormatEntityPolicy,
  KindValidator,
  NoForeignRootFieldsEntityPolicy,
  resourceEntityV1alpha1Validator,
  SchemaValidEntityPolicy,
  stringifyEntityRef,
} from '@backstage/catalog-model';

// The checks the catalog runs on every entity it processes: the envelope policies, then the kind's own schema.
const policy = EntityPolicies.allOf([
  new SchemaValidEntityPolicy(),
  new DefaultNamespaceEntityPolicy(),
  new NoForeignRootFieldsEntityPolicy(),
  new FieldFormatEntityPolicy(),
]);

const kindValidators: Record<string, KindValidator> = {
  Resource: resourceEntityV1alpha1Validator,
  Component: componentEntityV1alpha1Validator,
};

/**
 * Why the catalog would reject an entity, or undefined when it would accept it. Checked before emitting, so one
 * odd Flux object never reaches the catalog's error log and never holds back its cluster's other entities.
 */
export async function entityValidationError(
  entity: Entity,
): Promise<string | undefined> {
  try {
    const copy = JSON.parse(JSON.stringify(entity)) as Entity;
    await policy.enforce(copy);
    const validator = kindValidators[entity.kind];
    if (!validator || !(await validator.check(copy))) {
      return `kind ${entity.kind} is not one the provider emits`;
    }
    return undefined;
  } catch (error) {
    const name = (() => {
      try {
        return stringifyEntityRef(entity);
      } catch {
        return String(entity?.metadata?.name);
      }
    })();
    return `entity ${name} is not valid: ${
      error instanceof Error ? error.message : String(error)
    }`;
  }
}
