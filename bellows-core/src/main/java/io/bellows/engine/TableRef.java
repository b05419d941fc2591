package io.bellows.engine;

import io.bellows.schema.TableDescriptor;

/**
 * One table as an {@link Engine} knows it when asked: the name, the id that the table keeps for
 * its life (ids are never reused, so a reference never reaches a later table of the same name) and
 * its descriptor.
 */
public record TableRef(String name, int id, TableDescriptor descriptor) {}
