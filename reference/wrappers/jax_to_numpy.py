"""Drive a JAX environment with NumPy arrays (needs ``pip install "gymspec[jax]"``).

Importing this module without JAX or array-api-compat raises :class:`~reference.error.DependencyNotInstalled`.
A round trip is not exact for every value: JAX has no scalars, so a NumPy scalar comes back as a 0-d array.
"""

from __future__ import annotations

import functools

import numpy as np

from reference.core import ActType, Env, ObsType
from reference.utils._optional import import_optional
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers.array_conversion import ArrayConversion, array_conversion, module_namespace

jnp = import_optional("jax.numpy", "reference.wrappers.jax_to_numpy")

__all__ = ["JaxToNumpy", "jax_to_numpy", "numpy_to_jax"]

jax_to_numpy = functools.partial(array_conversion, xp=module_namespace(np))
"""Convert JAX arrays (or containers of them) to NumPy arrays."""
numpy_to_jax = functools.partial(array_conversion, xp=module_namespace(jnp))
"""Convert NumPy arrays (or containers of them) to JAX arrays."""


class JaxToNumpy(ArrayConversion[ObsType, ActType]):
    """Let a JAX environment take and return NumPy arrays (rewards become ``float``, flags ``bool``).

    Args:
        env: The JAX environment.

    Example:
        A NumPy environment whose observations are turned into JAX arrays stands in for a JAX environment:

        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.spaces import Discrete
        >>> from reference.wrappers import TransformAction, TransformObservation
        >>> jax_env = TransformAction(TransformObservation(CartPoleEnv(), jnp.asarray, None), int, Discrete(2))
        >>> env = JaxToNumpy(jax_env)
        >>> obs, _ = env.reset(seed=0)
        >>> type(obs).__name__, obs.dtype
        ('ndarray', dtype('float32'))
        >>> _, reward, terminated, _, _ = env.step(np.int64(1))
        >>> type(reward).__name__, type(terminated).__name__
        ('float', 'bool')
    """

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        RecordConstructorArgs.__init__(self)
        ArrayConversion.__init__(self, env=env, env_xp=jnp, target_xp=np)
