"""gymspec: the typed, testable specification of the Gymnasium environment API.

The protocols are re-exported here; the rule catalog lives in :mod:`gymspec.rules` (``python -m gymspec.rules``
prints it) and the errors the rules name in :mod:`gymspec.errors`.
"""

from gymspec._typing import (
    RNG,
    AutoresetMode,
    AutoresetModeName,
    InfoDict,
    Metadata,
    Options,
    RenderFrame,
    RenderMode,
    Seed,
    Value,
    VectorSeed,
    autoreset_mode_of,
)
from gymspec.env import AnyEnv, Env, HasNpRandom, HasSpec, HasUnwrapped, StepResult, SupportsWrapperAttrs
from gymspec.functional import FuncEnv, FunctionTransform
from gymspec.registry import ENV_ID_PATTERN, EnvSpecLike, SupportsMake, SupportsMakeVec
from gymspec.render import RenderMetadata, base_render_mode
from gymspec.space import (
    BoxLike,
    CompositeLike,
    DiscreteLike,
    MultiBinaryLike,
    MultiDiscreteLike,
    Space,
    SupportsJsonable,
)
from gymspec.vector import AutoresettingVectorEnv, VectorEnv
from gymspec.wrapper import Wrapper

__all__ = [
    "AnyEnv",
    "AutoresetMode",
    "AutoresetModeName",
    "AutoresettingVectorEnv",
    "BoxLike",
    "CompositeLike",
    "DiscreteLike",
    "ENV_ID_PATTERN",
    "Env",
    "EnvSpecLike",
    "FuncEnv",
    "FunctionTransform",
    "HasNpRandom",
    "HasSpec",
    "HasUnwrapped",
    "InfoDict",
    "Metadata",
    "MultiBinaryLike",
    "MultiDiscreteLike",
    "Options",
    "RNG",
    "RenderFrame",
    "RenderMetadata",
    "RenderMode",
    "Seed",
    "Space",
    "StepResult",
    "SupportsJsonable",
    "SupportsMake",
    "SupportsMakeVec",
    "SupportsWrapperAttrs",
    "Value",
    "VectorEnv",
    "VectorSeed",
    "Wrapper",
    "autoreset_mode_of",
    "base_render_mode",
]

__version__ = "0.1.0"
