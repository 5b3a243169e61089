/**
 * Cycles in a directed graph (the `dependsOn` graph of a cluster), found with Tarjan's strongly connected
 * components algorithm in its iterative form, so that long dependency chains cannot overflow the stack.
 * Linear in nodes + edges.
 */

/**
 * The cycles of a graph: every strongly connected component with more than one node, or a node with an edge to
 * itself. Each cycle lists its nodes in the order they were found; cycles come in the order of their first node.
 *
 * @param nodes - every node, in a stable order.
 * @param successors - the nodes a node points to; only nodes in `nodes` count.
 */
export function findCycles<T>(
  nodes: readonly T[],
  successors: (node: T) => readonly T[],
): T[][] {
  const index = new Map<T, number>();
  const low = new Map<T, number>();
  const onStack = new Set<T>();
  const stack: T[] = [];
  const cycles: T[][] = [];
  const known = new Set(nodes);
  // Each frame: a node and the position of the next successor to visit.
  const frames: Array<{ node: T; next: number; edges: readonly T[] }> = [];
  const enter = (node: T) => {
    const order = index.size;
    index.set(node, order);
    low.set(node, order);
    stack.push(node);
    onStack.add(node);
    frames.push({
      node,
      next: 0,
      edges: successors(node).filter(n => known.has(n)),
    });
  };

  for (const root of nodes) {
    if (index.has(root)) continue;
    enter(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      if (frame.next < frame.edges.length) {
        const to = frame.edges[frame.next++];
        if (!index.has(to)) {
          enter(to);
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) {
        low.set(
          parent.node,
          Math.min(low.get(parent.node)!, low.get(frame.node)!),
        );
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: T[] = [];
        let member: T;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || frame.edges.includes(frame.node)) {
          cycles.push(component.reverse());
        }
      }
    }
  }
  return cycles;
}
