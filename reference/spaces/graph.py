"""Graphs: node features, edge features and the node pairs each edge links."""

from __future__ import annotations

import typing
from typing import Any, Literal, NamedTuple, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference import logger
from reference._narrowing import is_list_or_tuple, is_tuple
from reference.spaces import _batching
from reference.spaces._limits import check_array_size
from reference.spaces._validation import MaskError, MaskTypeError, describe, pick_sample_arg
from reference.spaces.space import Jsonable, Space, SpaceArg
from reference.spaces.tuple import INT32_MAX

_INT64_MAX = 2**63 - 1
_EDGE_LINK_NODES = 2**31
"""The most nodes a graph with edges may have: edge links are int32 node indices."""

__all__ = ["Graph", "GraphInstance"]

_Seed: TypeAlias = int | np.random.Generator | None
_Features: TypeAlias = Any  # a batch of node or edge features (usually an ndarray of shape (n, ...))


class GraphInstance(NamedTuple):
    """One graph: ``nodes`` (n, ...) features, ``edges`` (m, ...) features or ``None``, ``edge_links`` (m, 2) or ``None``."""

    nodes: _Features
    edges: _Features | None
    edge_links: NDArray[Any] | None


class Graph(Space[GraphInstance]):
    r"""Graphs whose node features belong to ``node_space`` and edge features to ``edge_space``.

    Samples have ``num_nodes`` nodes (default 10) and, unless given, a random number of edges below
    ``num_nodes * (num_nodes - 1)``; ``edge_links`` pairs node indices.

    Args:
        node_space: The space of one node's features (a Box or Discrete, typically).
        edge_space: The space of one edge's features, or ``None`` for graphs without edges.
        seed: Seed or generator; an int seeds this space and the node/edge spaces deterministically.

    Raises:
        TypeError: ``node_space`` is not a space, or ``edge_space`` is neither a space nor ``None``.
    """

    node_space: Space[Any]
    edge_space: Space[Any] | None

    def __init__(self, node_space: Space[Any], edge_space: Space[Any] | None, seed: _Seed | typing.Sequence[int] = None) -> None:
        if not isinstance(node_space, Space):
            raise TypeError(f"Graph node_space must be a reference Space, got {describe(node_space)}")
        if edge_space is not None and not isinstance(edge_space, Space):
            raise TypeError(f"Graph edge_space must be a reference Space or None, got {describe(edge_space)}")
        self.node_space = node_space
        self.edge_space = edge_space
        self.batch_node_space = _batching.batch_space(node_space, 1)
        self.batch_edge_space = None if edge_space is None else _batching.batch_space(edge_space, 1)
        # Space.__init__ hands per-subspace seeds on to ``seed``, which needs the subspaces set first.
        super().__init__(None, None, seed)

    @property
    def is_np_flattenable(self) -> Literal[False]:
        """Always ``False`` (the size varies)."""
        return False

    def seed(self, seed: int | typing.Sequence[int] | None = None) -> tuple[Any, ...]:
        """Seed this space (edge counts and links) and the node/edge spaces.

        Args:
            seed: ``None`` for fresh entropy; an int seeds this space, draws the node (and edge) seeds from it,
                then re-seeds this space with the int (as Gymnasium); a tuple gives 2 (no edge space) or 3
                seeds explicitly.

        Returns:
            ``(own, node)`` or ``(own, node, edge)`` seeds.

        Raises:
            TypeError: ``seed`` is of another type.
            ValueError: A seed tuple has the wrong length.
        """
        edge_space = self.edge_space
        if seed is None:
            own = super().seed(None)
            if edge_space is None:
                return own, self.node_space.seed(None)
            return own, self.node_space.seed(None), edge_space.seed(None)
        if isinstance(seed, int):
            own = super().seed(seed)
            if edge_space is None:
                node_seed = int(self.np_random.integers(INT32_MAX))
                super().seed(seed)
                return own, self.node_space.seed(node_seed)
            node_seed, edge_seed = self.np_random.integers(INT32_MAX, size=(2,))
            super().seed(seed)
            return own, self.node_space.seed(int(node_seed)), edge_space.seed(int(edge_seed))
        if is_list_or_tuple(seed):
            expected = 2 if edge_space is None else 3
            if len(seed) != expected:
                raise ValueError(
                    f"Graph seed must have {expected} entries (own, node{', edge' if expected == 3 else ''}), "
                    f"got {len(seed)} entries"
                )
            own = super().seed(seed[0])
            if edge_space is None:
                return own, self.node_space.seed(seed[1])
            return own, self.node_space.seed(seed[1]), edge_space.seed(seed[2])
        raise TypeError(f"Graph seed must be an int, a tuple of seeds or None, got {describe(seed)}")

    def sample(
        self,
        mask: SpaceArg | None = None,
        probability: SpaceArg | None = None,
        num_nodes: int = 10,
        num_edges: int | None = None,
    ) -> GraphInstance:
        """Draw a graph with ``num_nodes`` nodes.

        Args:
            mask: ``(node_mask, edge_mask)``, each passed to the batched node/edge space (or ``None``). Without
                ``num_edges`` the edge mask is repeated once per edge.
            probability: Like ``mask`` with probabilities.
            num_nodes: The number of nodes (positive).
            num_edges: The number of edges; random in ``[0, num_nodes * (num_nodes - 1))`` when ``None``.

        Returns:
            The graph; ``edges``/``edge_links`` are ``None`` when there is no edge space or no edge.

        Raises:
            ValueError: ``num_nodes <= 0``, ``num_edges < 0``, or both masks given (also Gymnasium's ``Error``);
                ``num_nodes`` or ``num_edges`` past NumPy's array limits or this machine's memory, or ``num_nodes``
                past ``2**31`` (edge links are int32) when edges are sampled.
            TypeError: A mask is not a pair (also Gymnasium's ``Error``).
        """
        if not isinstance(num_nodes, (int, np.integer)) or num_nodes <= 0:
            raise MaskError(f"Graph.sample num_nodes must be a positive int, got {describe(num_nodes)}")
        mask_type: str | None = None
        node_mask: SpaceArg = None
        edge_mask: SpaceArg = None
        if mask is not None or probability is not None:
            mask_type, value = pick_sample_arg("Graph.sample", mask, probability)
            if not is_tuple(value) or len(value) != 2:
                raise MaskTypeError(f"Graph.sample {mask_type} must be a (node, edge) pair, got {describe(value)}")
            node_mask, edge_mask = value

        if num_edges is None:
            if num_nodes * (num_nodes - 1) > _INT64_MAX:
                raise MaskError(
                    f"Graph.sample num_nodes must be at most 3037000500 when num_edges is None (the random edge count "
                    f"is drawn as an int64), got {num_nodes!r}"
                )
            num_edges = int(self.np_random.integers(num_nodes * (num_nodes - 1))) if num_nodes > 1 else 0
            if edge_mask is not None:
                edge_mask = tuple(edge_mask for _ in range(num_edges))
        else:
            if self.edge_space is None:
                logger.warn(f"The number of edges is set ({num_edges}) but the edge space is None.", stacklevel=2)
            if isinstance(num_edges, bool) or not isinstance(num_edges, (int, np.integer)):
                raise MaskTypeError(f"Graph.sample num_edges must be an int or None, got {describe(num_edges)}")
            if num_edges < 0:
                raise MaskError(f"Graph.sample num_edges must be >= 0, got {describe(num_edges)}")

        self._check_sizes(num_nodes, num_edges)
        node_kwargs = {} if mask_type is None else {mask_type: node_mask}
        edge_kwargs = {} if mask_type is None else {mask_type: edge_mask}
        # The batched spaces sample from a copy of the node/edge generator; advancing the original once
        # afterwards keeps consecutive samples different (Gymnasium's scheme, reproduced draw for draw).
        try:
            nodes = _batching.batch_space(self.node_space, num_nodes).sample(**node_kwargs)
        except MemoryError:
            raise MaskError(f"Graph.sample num_nodes must leave the nodes room in memory, got {num_nodes!r}") from None
        self.node_space.np_random.random()
        edges = None
        if num_edges >= 1 and self.edge_space is not None:
            try:
                edges = _batching.batch_space(self.edge_space, num_edges).sample(**edge_kwargs)
            except MemoryError:
                raise MaskError(f"Graph.sample num_edges must leave the edges room in memory, got {num_edges!r}") from None
            self.edge_space.np_random.random()
        edge_links = None
        if edges is not None:
            edge_links = self.np_random.integers(low=0, high=num_nodes, size=(num_edges, 2), dtype=np.int32)
        return GraphInstance(nodes, edges, edge_links)

    def _check_sizes(self, num_nodes: int, num_edges: int) -> None:
        """Reject node and edge counts whose arrays NumPy cannot allocate on this platform, whatever the memory."""
        node_shape = (int(num_nodes), *(self.node_space.shape or ()))
        node_bytes = self.node_space.dtype.itemsize if self.node_space.dtype is not None else 8
        check_array_size("Graph.sample", "num_nodes", node_shape, node_bytes, int(num_nodes), MaskError)
        if num_edges < 1 or self.edge_space is None:
            return
        edge_shape = (int(num_edges), *(self.edge_space.shape or ()))
        edge_bytes = self.edge_space.dtype.itemsize if self.edge_space.dtype is not None else 8
        check_array_size("Graph.sample", "num_edges", edge_shape, edge_bytes, int(num_edges), MaskError)
        check_array_size("Graph.sample", "num_edges", (int(num_edges), 2), 4, int(num_edges), MaskError)
        if num_nodes > _EDGE_LINK_NODES:
            raise MaskError(
                f"Graph.sample num_nodes must be at most {_EDGE_LINK_NODES} when edges are sampled (edge links are "
                f"int32), got {num_nodes!r}"
            )

    def contains(self, x: object) -> bool:
        """Tell whether ``x`` is a :class:`GraphInstance` whose features and links are valid.

        Args:
            x: The candidate value.

        Returns:
            Whether ``x`` belongs to the space.
        """
        if not isinstance(x, GraphInstance) or x.nodes is None:
            return False
        try:
            nodes = list(_batching.iterate(self.batch_node_space, x.nodes))
            if not all(self.node_space.contains(node) for node in nodes):
                return False
            if x.edges is None or x.edge_links is None:
                return x.edges is None and x.edge_links is None
            if self.edge_space is None or self.batch_edge_space is None or not isinstance(x.edge_links, np.ndarray):
                return False
            edges = list(_batching.iterate(self.batch_edge_space, x.edges))
            if not all(self.edge_space.contains(edge) for edge in edges):
                return False
        except (TypeError, ValueError):
            return False
        links = x.edge_links
        return bool(
            links.dtype.kind in "iu"
            and links.shape == (len(edges), 2)
            and ((links >= 0) & (links < len(nodes))).all()
        )

    def __repr__(self) -> str:
        return f"Graph({self.node_space}, {self.edge_space})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Graph) and self.node_space == other.node_space and self.edge_space == other.edge_space

    def to_jsonable(self, sample_n: typing.Sequence[Any]) -> Jsonable:
        """Convert graphs to dicts with ``nodes`` (and ``edges``/``edge_links`` when present).

        Args:
            sample_n: Elements of the space.

        Returns:
            One dict per graph.
        """
        result: list[dict[str, Any]] = []
        for sample in sample_n:
            entry: dict[str, Any] = {"nodes": self.batch_node_space.to_jsonable([sample.nodes])}
            if sample.edges is not None and sample.edge_links is not None and self.batch_edge_space is not None:
                entry["edges"] = self.batch_edge_space.to_jsonable([sample.edges])
                entry["edge_links"] = np.asarray(sample.edge_links).tolist()
            result.append(entry)
        return result

    def from_jsonable(self, sample_n: Jsonable) -> list[GraphInstance]:
        """Invert :meth:`to_jsonable`.

        Args:
            sample_n: One dict per graph.

        Returns:
            The graphs.
        """
        graphs: list[GraphInstance] = []
        for sample in sample_n:
            nodes = self.batch_node_space.from_jsonable(sample["nodes"])[0]
            if "edges" in sample and self.batch_edge_space is not None:
                edges = self.batch_edge_space.from_jsonable(sample["edges"])[0]
                graphs.append(GraphInstance(nodes, edges, np.asarray(sample["edge_links"], dtype=np.int32)))
            else:
                graphs.append(GraphInstance(nodes, None, None))
        return graphs
