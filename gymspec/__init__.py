"""gymspec: the typed, testable specification of the Gymnasium environment API.

The protocols are re-exported here; the rule catalog lives in :mod:`gymspec.rules` (``python -m gymspec.rules``
prints it) and the errors the rules name in :mod:`gymspec.errors`.
"""

from gymspec._typing import (
    RNG,
    AutoresetMode,
    AutoresetModeName,
    Flag,
    InfoDict,
    Metadata,
    Options,
    RenderFrame,
    RenderFrameList,
    RenderMode,
    RenderResult,
    Seed,
    Value,
    VectorSeed,
    autoreset_mode_of,
)
from gymspec.env import (
    AnyEnv,
    Env,
    HasMetadata,
    HasNpRandom,
    HasSpaces,
    HasSpec,
    HasUnwrapped,
    StepResult,
    SupportsClose,
    SupportsRender,
    SupportsReset,
    SupportsStep,
    SupportsWrapperAttrs,
)
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
    "Flag",
    "FuncEnv",
    "FunctionTransform",
    "HasMetadata",
    "HasNpRandom",
    "HasSpaces",
    "HasSpec",
    "HasUnwrapped",
    "InfoDict",
    "Metadata",
    "MultiBinaryLike",
    "MultiDiscreteLike",
    "Options",
    "RNG",
    "RenderFrame",
    "RenderFrameList",
    "RenderMetadata",
    "RenderMode",
    "RenderResult",
    "Seed",
    "Space",
    "StepResult",
    "SupportsClose",
    "SupportsJsonable",
    "SupportsMake",
    "SupportsMakeVec",
    "SupportsRender",
    "SupportsReset",
    "SupportsStep",
    "SupportsWrapperAttrs",
    "Value",
    "VectorEnv",
    "VectorSeed",
    "Wrapper",
    "autoreset_mode_of",
    "base_render_mode",
]

__version__ = "0.1.0"
