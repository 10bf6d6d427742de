"""Helpers for vector environments: batching spaces and elements, shared-memory buffers, reset options, processes."""

from __future__ import annotations

from reference.vector.utils.misc import CloudpickleWrapper, clear_mpi_env_vars
from reference.vector.utils.reset_options import split_reset_mask
from reference.vector.utils.shared_memory import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)
from reference.vector.utils.space_utils import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
)

__all__ = [
    "CloudpickleWrapper",
    "batch_differing_spaces",
    "batch_space",
    "clear_mpi_env_vars",
    "concatenate",
    "create_empty_array",
    "create_shared_memory",
    "iterate",
    "read_from_shared_memory",
    "split_reset_mask",
    "write_to_shared_memory",
]
