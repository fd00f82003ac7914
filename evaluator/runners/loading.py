"""Loading a model for `neghub run` and `neghub reproduce`: what MODEL names, its weights straight onto the device,
its tokenizer, and the numeric setting it runs in (torch and transformers imported here, lazily).

What loading spares a run (README's Performance tables give the figures, perf/bench_runner_overheads.py measures them):
- the weights are created on the device they run on (`device_map`), never on the CPU first and then copied;
  `device_map="auto"` spreads a model too large for one GPU over every visible one (accelerate);
- a GGUF file is parsed once (`gguf_parsed_once`): transformers reads its metadata for the configuration, the
  model's configuration again, the tokenizer and the tensors, four parses otherwise; a folder's or a Hub model's
  run imports no GGUF reader at all;
- `torch._dynamo`, which transformers imports at module level, is not imported for a run that compiles nothing
  (`lean_transformers`);
- Python's cyclic garbage collector does not traverse, again and again, the objects the imports and the model
  create while they are made (`collector_paused`);
- a model's files are hashed once per run and cached across runs (hashing.py).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import gc
import importlib.util
import os
import re
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..core.errors import InputError
from ..releases.upstream import offline
from ..submissions.format import REVISION_PATTERN
from ..submissions.reproduction import NumericSetting
from .hashing import local_sha256

if TYPE_CHECKING:
    from .backend import Backend, ModelKind

# whether `load_backend` runs the linear layers through oneDNN with pre-packed weights (CPU, float32) unless told
# otherwise (`neghub run --pack-linears`): off, because on the machine NegHub's figures come from (2-core AMD EPYC,
# Zen 3) it does not pay: no faster end to end (perf/bench_runner_vs_lmeval.py), and it keeps a second copy
# of every linear weight (SmolLM2-135M: about 500 MiB more). It may pay on other processors: measure there.
DEFAULT_PACK_LINEARS = False
DEVICES = ("cpu", "cuda")
DTYPES = ("float32", "bfloat16", "float16")
DEVICE_MAPS = ("device", "auto")  # the weights on --device, or spread over every visible GPU (accelerate)


@dataclass(frozen=True)
class ModelSource:
    """Where the weights come from: a pinned Hub commit, a local folder, or a local GGUF file."""

    source: Literal["hub", "folder", "gguf"]
    location: str  # repo id, folder path, or the GGUF file's path
    revision: str | None = None

    @cached_property
    def local_sha256(self) -> str | None:
        """What pins local weights: the GGUF file's sha256, or the folder's (`hashing.folder_sha256`); computed
        once per source, from the caches where they know it."""
        if self.source == "hub":
            return None
        return local_sha256(Path(self.location))

    @property
    def gguf_sha256(self) -> str | None:
        return self.local_sha256 if self.source == "gguf" else None


def resolve_source(model: str, revision: str | None) -> ModelSource:
    """Decide what MODEL names; a Hub id needs a pinned 40-hex revision (a branch name can move)."""
    path = Path(model)
    if path.is_file():
        if path.suffix != ".gguf":
            raise InputError.single("MODEL", f"{model}: a file must be a .gguf file")
        return ModelSource("gguf", str(path.resolve()))
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise InputError.single(
                "MODEL", f"{model}: a model folder holds a config.json (transformers' save_pretrained)"
            )
        return ModelSource("folder", str(path.resolve()))
    if re.fullmatch(r"[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*", model):
        if revision is None or not re.fullmatch(REVISION_PATTERN, revision):
            raise InputError.single(
                "--revision", f"a Hub model needs --revision with a 40-hex commit, got {revision!r}"
            )
        return ModelSource("hub", model, revision)
    raise InputError.single("MODEL", f"{model!r} is neither a local folder, a .gguf file nor a Hub repo id")


# --- importing transformers without torch._dynamo ---------------------------------------------------------

# transformers' masking_utils imports this one class from torch._dynamo at module level; the module that
# defines it needs nothing else of torch._dynamo, whose own import costs seconds (see `lean_transformers`)
_DYNAMO_HELPER = "torch._dynamo._trace_wrapped_higher_order_op"


def _real_dynamo() -> Any:
    """The real torch._dynamo, imported now (a stand-in, if any, retired first)."""
    import torch

    if isinstance(sys.modules.get("torch._dynamo"), _DynamoStandIn):
        del sys.modules["torch._dynamo"]
    if isinstance(vars(torch).get("_dynamo"), _DynamoStandIn):
        del vars(torch)["_dynamo"]
    return importlib.import_module("torch._dynamo")


def _lazy_disable(fn: Any = None, recursive: bool = True, **kwargs: Any) -> Any:
    """`torch._dynamo.disable` (and `torch.compiler.disable`) that imports torch._dynamo only when the function
    it wraps is called while torch._dynamo is loaded, that is when something may be compiling; until then the
    function runs as it is. transformers applies it as a decorator when its modules are imported, torch when a
    reference operator first runs."""
    if fn is None:
        return functools.partial(_lazy_disable, recursive=recursive, **kwargs)
    wrapped: list[Any] = []

    @functools.wraps(fn)
    def call(*args: Any, **inner: Any) -> Any:
        loaded = sys.modules.get("torch._dynamo")
        if loaded is None or isinstance(loaded, _DynamoStandIn):
            return fn(*args, **inner)
        if not wrapped:
            wrapped.append(_real_dynamo().disable(fn, recursive, **kwargs))
        return wrapped[0](*args, **inner)

    return call


def _unchanged(fn: Any) -> Any:
    return fn


class _DynamoStandIn(types.ModuleType):
    """`torch._dynamo` while transformers loads a model (`lean_transformers`): what its modules and torch's
    reference operators take from it then are decorators for the compiler, which leave a function as it is when
    nothing compiles (`disable` waits until something does). Any other name imports the real torch._dynamo
    (the stand-in retires) and is taken from it."""

    disable = staticmethod(_lazy_disable)
    allow_in_graph = staticmethod(_unchanged)
    assume_constant_result = staticmethod(_unchanged)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # a module's own attributes, which inspect and importlib probe for
            raise AttributeError(name)
        return getattr(_real_dynamo(), name)


@contextmanager
def lean_transformers() -> Iterator[None]:
    """Load a model without importing torch._dynamo where nothing compiles (1.5-2 s of a CPU run's start on the
    2-core machine, 4.7 s profiled on the GPU runner): transformers imports it with its modules (decorators,
    masking_utils' one class) and torch's reference operators when they first run (building the model on the
    meta device). While the block runs, a stand-in answers for torch._dynamo (`_DynamoStandIn`, also behind the
    `torch.compiler` decorators) and masking_utils' class is loaded from its own file. The decorated functions run
    as they are; a later `torch.compile` imports the real torch._dynamo, and a function marked here for the
    compiler is then traced like any other (a graph break at worst, never another result)."""
    import torch

    if "torch._dynamo" in sys.modules:  # already paid for
        yield
        return
    if _DYNAMO_HELPER not in sys.modules:
        origin = Path(torch.__file__).parent / "_dynamo" / "_trace_wrapped_higher_order_op.py"
        spec = importlib.util.spec_from_file_location(_DYNAMO_HELPER, origin)
        if spec is not None and spec.loader is not None:
            module = importlib.util.module_from_spec(spec)
            sys.modules[_DYNAMO_HELPER] = module
            try:
                spec.loader.exec_module(module)
            except Exception:  # another torch: let transformers import torch._dynamo as it would
                del sys.modules[_DYNAMO_HELPER]
    stand_in = _DynamoStandIn("torch._dynamo")
    real = {name: getattr(torch.compiler, name) for name in ("disable", "allow_in_graph", "assume_constant_result")}
    for name in real:  # the torch.compiler decorators import torch._dynamo when applied
        setattr(torch.compiler, name, getattr(stand_in, name))
    sys.modules["torch._dynamo"] = stand_in
    vars(torch)["_dynamo"] = stand_in  # found before torch's lazy import of the submodule
    try:
        yield
    finally:
        for name, function in real.items():
            setattr(torch.compiler, name, function)
        if sys.modules.get("torch._dynamo") is stand_in:
            del sys.modules["torch._dynamo"]
        if vars(torch).get("_dynamo") is stand_in:
            del vars(torch)["_dynamo"]  # the next `torch._dynamo` imports the real one


# --- a GGUF file parsed once --------------------------------------------------------------------------------


@dataclass
class GgufParses:
    """How often gguf's GGUFReader parsed a file, and transformers' metadata reads asked and done, in this
    process (overhead benchmark, tests)."""

    readers_built: int = 0
    metadata_asked: int = 0
    metadata_parsed: int = 0


GGUF_PARSES = GgufParses()


@contextmanager
def gguf_parsed_once() -> Iterator[None]:
    """Within the block, a GGUF file is parsed once however often transformers asks: transformers 5.23 reads the
    metadata for AutoConfig, for the model's configuration (unless given one), for the tokenizer, and once more
    with the tensors, each time building gguf's GGUFReader (about 6 s for SmolLM2-135M on the 2-core machine).
    Here the reader is built once per file, a metadata-only read (`load_gguf_checkpoint(...,
    return_tensors=False)`) answers a copy of the first one, and gguf's tensor-name table, which transformers
    builds again for every module of the model, is built once. The weights read with the tensors are unchanged."""
    from transformers import modeling_gguf_pytorch_utils as legacy

    gguf: Any = importlib.import_module("gguf")

    real_reader, real_load, real_names = gguf.GGUFReader, legacy.load_gguf_checkpoint, gguf.get_tensor_name_map
    readers: dict[tuple[str, str], Any] = {}
    metadata: dict[str, Any] = {}
    names: dict[tuple[Any, int], Any] = {}

    def name_map(arch: Any, n_blocks: int) -> Any:
        # transformers builds gguf's name table once per module of the model (SmolLM2: 397 times, 14 s profiled)
        if (arch, n_blocks) not in names:
            names[arch, n_blocks] = real_names(arch, n_blocks)
        return names[arch, n_blocks]

    def reader(path: Any, mode: str = "r") -> Any:
        key = (os.path.realpath(path), mode)
        if key not in readers:
            readers[key] = real_reader(path, mode)
            GGUF_PARSES.readers_built += 1
        return readers[key]

    def load(path: Any, return_tensors: bool = False, *args: Any, **kwargs: Any) -> Any:
        if return_tensors or args or kwargs:
            return real_load(path, return_tensors, *args, **kwargs)
        GGUF_PARSES.metadata_asked += 1
        key = os.path.realpath(path)
        if key not in metadata:
            metadata[key] = real_load(path, False)
            GGUF_PARSES.metadata_parsed += 1
        return copy.deepcopy(metadata[key])  # callers may change what they get

    # each is imported from its module at each call, so replacing the module's attribute reaches every caller
    gguf.GGUFReader, legacy.load_gguf_checkpoint, gguf.get_tensor_name_map = reader, load, name_map
    restore = _metadata_read_once(metadata)
    try:
        yield
    finally:
        gguf.GGUFReader, legacy.load_gguf_checkpoint, gguf.get_tensor_name_map = real_reader, real_load, real_names
        restore()


def _metadata_read_once(answers: dict[Any, Any]) -> Any:
    """transformers' own GGUF reader (`integrations.gguf.reader.read_gguf_metadata`, where this transformers has
    it) reads a file's metadata once per asking: for the configuration, the quantizer's header, the tokenizer's
    class and the tokenizer itself, four opens of the file. Within `gguf_parsed_once` it is read once per file
    and set of string arrays asked for, and each caller gets its own copy. Returns what restores the original."""
    try:
        reader_module: Any = importlib.import_module("transformers.integrations.gguf.reader")
        package: Any = importlib.import_module("transformers.integrations.gguf")
    except ImportError:
        return lambda: None  # an older transformers: gguf's GGUFReader (patched above) is its only reader
    real = getattr(reader_module, "read_gguf_metadata", None)
    if real is None:
        return lambda: None
    # the quantizer imports the function by name when it is first imported, which may be inside the block
    quantizer_module = "transformers.quantizers.quantizer_gguf"

    def read_once(gguf_path: Any, string_arrays: Any = ()) -> Any:
        GGUF_PARSES.metadata_asked += 1
        key = ("transformers-reader", os.path.realpath(gguf_path), tuple(sorted(string_arrays)))
        if key not in answers:
            answers[key] = real(gguf_path, string_arrays)
            GGUF_PARSES.metadata_parsed += 1
        return copy.deepcopy(answers[key])  # callers may change what they get

    def holders() -> list[Any]:
        return [reader_module, package, *filter(None, [sys.modules.get(quantizer_module)])]

    for holder in holders():
        holder.read_gguf_metadata = read_once

    def restore() -> None:
        for holder in holders():
            if getattr(holder, "read_gguf_metadata", None) is read_once:
                holder.read_gguf_metadata = real

    return restore


# --- the model ----------------------------------------------------------------------------------------------

# OpenMP's threads sleep between parallel regions instead of spinning (unless the environment says otherwise):
# on a machine whose cores other processes want too, spinning threads steal the time the working ones need.
# SmolLM2-135M, NUBench, batches of 8, two threads on the 2-core machine under load 5-8: 29 s per batch spinning,
# 3-8 s sleeping (one thread: 2.7 s). It must be set before torch starts OpenMP, at its import.
OPENMP_WAIT_POLICY = "PASSIVE"


def sleeping_openmp_threads() -> None:
    """Set OMP_WAIT_POLICY=PASSIVE for this process unless it is set (see OPENMP_WAIT_POLICY); no effect once
    torch has started OpenMP."""
    os.environ.setdefault("OMP_WAIT_POLICY", OPENMP_WAIT_POLICY)


def check_device(device: str) -> None:
    """Refuse, in one line, a device this machine does not have."""
    import torch

    if device == "cuda" and not torch.cuda.is_available():
        build = f"torch {torch.__version__}" + ("" if torch.version.cuda else ", a build without CUDA")
        raise InputError.single("--device", f"cuda: no CUDA device is available here ({build})")


def device_name(device: str) -> str:
    """The processor or GPU a run computes on, as recorded (`device_name`): not part of the setting, shown."""
    import torch

    if device == "cuda":
        names = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
        return names[0] + (f" x{len(names)}" if len(names) > 1 else "") if names else "cuda"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} logical CPUs"
    except OSError:
        pass
    import platform

    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs"


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused within the block (left as it was after it). Importing torch and
    transformers and building a model creates hundreds of thousands of objects that live until the process ends;
    each collection the allocations trigger meanwhile traverses all of them and frees next to nothing (SmolLM2-135M
    on the 2-core machine: about 0.6 of the 4 CPU seconds its load took)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def hub_offline() -> Iterator[None]:
    """Within the block, huggingface_hub is offline when NEGHUB_OFFLINE or HF_HUB_OFFLINE says so now (the library
    reads HF_HUB_OFFLINE once, when it is imported): no request at all, not even its own side requests, and a
    model that is not in the local cache fails at once instead of after the library's retries against a network
    that is not there (about 20 s where the host's name does not resolve)."""
    if not offline():
        yield
        return
    from huggingface_hub import constants

    was = constants.HF_HUB_OFFLINE
    constants.HF_HUB_OFFLINE = True
    try:
        yield
    finally:
        constants.HF_HUB_OFFLINE = was


@collector_paused()
def load_backend(
    source: ModelSource,
    *,
    device: str = "cpu",
    dtype: str = "float32",
    attn_implementation: str | None = None,
    device_map: str = "device",
    pack_linears: bool = DEFAULT_PACK_LINEARS,
) -> Backend:
    """Load a causal or masked LM or a sequence classifier (trust_remote_code off; safetensors only for Hub
    models), its weights created on `device` (or, with `device_map="auto"`, spread over the visible GPUs), in
    `dtype`, with `attn_implementation` (None: transformers' default for the model, recorded as it is). With
    `pack_linears`, on CPU in float32, its linear layers run through oneDNN with pre-packed weights."""
    sleeping_openmp_threads()
    check_device(device)
    import torch
    import transformers
    from safetensors import SafetensorError

    from .backend import Backend

    kwargs: dict[str, Any] = {"trust_remote_code": False}
    location = source.location
    if source.source == "hub":
        kwargs.update(revision=source.revision, use_safetensors=True)
        if offline():  # from the local Hub cache only (see hub_offline)
            kwargs["local_files_only"] = True
    if source.source == "gguf":
        kwargs["gguf_file"] = Path(location).name
        location = str(Path(location).parent)
    # a folder or a Hub model's run never reads a GGUF file: gguf's reader and transformers' GGUF loader stay
    # unimported (SmolLM2-135M's load: 4.02 CPU seconds against 4.10, medians of 7 alternating pairs at load 12-15)
    parsing = gguf_parsed_once() if source.source == "gguf" else contextlib.nullcontext()
    with lean_transformers(), parsing, hub_offline():
        from transformers import AutoConfig

        try:
            config = AutoConfig.from_pretrained(location, **kwargs)
        except (ValueError, OSError) as error:  # not a model transformers knows: one line, not its traceback
            first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise InputError.single("MODEL", f"transformers cannot read the model's configuration: {first}") from None
        kind = model_kind(config.architectures or [])
        loader = _loader(kind)
        if attn_implementation is not None:
            kwargs["attn_implementation"] = attn_implementation
        placement: Any = "auto" if device_map == "auto" else device
        try:
            model: Any = loader.from_pretrained(
                location, config=config, dtype=getattr(torch, dtype), device_map=placement, **kwargs
            )
        except (SafetensorError, ValueError, OSError) as error:  # a truncated or corrupted weights file
            first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise InputError.single(
                "MODEL", f"transformers cannot read the model's weights in {source.location}: {first}"
            ) from None
        model.eval()
        kwargs.pop("attn_implementation", None)
        tokenizer = transformers.AutoTokenizer.from_pretrained(location, **kwargs)
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token if tokenizer.eos_token is not None else tokenizer.unk_token
    tokenizer.padding_side = "left"
    packed = pack_linear_layers(model) if pack_linears and device == "cpu" and dtype == "float32" else 0
    info = {
        "model_source": source.source,
        "model_location": source.location if source.source == "hub" else Path(source.location).name,
        "model_revision": source.revision,
        "model_class": type(model).__name__,
        "trust_remote_code": False,
        "cpu_matmul": f"oneDNN, {packed} linear layers pre-packed" if packed else "torch default",
    }
    if device_map == "auto":
        info["device_map"] = "auto"
    return Backend(
        model=model,
        tokenizer=tokenizer,
        kind=kind,
        device=device,
        dtype=dtype,
        attn_implementation=str(getattr(model.config, "_attn_implementation", None) or "default"),
        info=info,
    )


def model_kind(architectures: list[str]) -> ModelKind:
    if any(arch.endswith("ForSequenceClassification") for arch in architectures):
        return "classifier"
    if any(arch.endswith("ForMaskedLM") for arch in architectures):
        return "masked"
    return "causal"


def _loader(kind: ModelKind) -> Any:
    from transformers import AutoModelForCausalLM, AutoModelForMaskedLM, AutoModelForSequenceClassification

    return {
        "causal": AutoModelForCausalLM,
        "masked": AutoModelForMaskedLM,
        "classifier": AutoModelForSequenceClassification,
    }[kind]


def pack_linear_layers(model: Any) -> int:
    """On CPU in float32, run every linear layer through oneDNN with its weight packed once, in place.

    oneDNN computes the same float32 products as torch's default CPU matmul (MKL's sgemm; in another
    order: results differ by rounding only), faster for some shapes on some processors, no faster end to
    end on others (2-core AMD EPYC, Zen 3: see `DEFAULT_PACK_LINEARS`). The packed weight is a second
    copy, so memory for the linear weights doubles (4 bytes per parameter more in float32). Nothing is
    packed (returns 0) where the oneDNN operators are missing or disagree with the plain layer on a
    probe; else returns how many.
    """
    import torch

    mkldnn_ops = getattr(torch.ops, "mkldnn", None)
    onednn_available = getattr(torch.backends.mkldnn, "is_available", lambda: False)
    if mkldnn_ops is None or not onednn_available():
        return 0
    try:
        reorder, linear_op = mkldnn_ops._reorder_linear_weight, mkldnn_ops._linear_pointwise
    except (AttributeError, RuntimeError):
        return 0
    layers = [m for m in model.modules() if type(m) is torch.nn.Linear and m.weight.dtype == torch.float32]
    if not layers:
        return 0
    with torch.inference_mode():
        probe_layer = layers[0]
        probe = torch.randn(3, probe_layer.in_features, generator=torch.Generator().manual_seed(0))
        try:
            packed = reorder(probe_layer.weight, 1024)
            got = linear_op(probe, packed, probe_layer.bias, "none", [], "")
        except RuntimeError:
            return 0
        if not torch.allclose(got, probe_layer(probe), rtol=1e-4, atol=1e-5):
            return 0
        for layer in layers:
            weight = reorder(layer.weight.detach(), 1024)  # 1024: a typical number of rows per batch

            def forward(x: Any, layer: Any = layer, weight: Any = weight) -> Any:
                return linear_op(x, weight, layer.bias, "none", [], "")

            vars(layer)["forward"] = forward  # on this instance only: nn.Module.__call__ finds it first
    return len(layers)


def run_setting(backend: Backend, batch_size: int, batch_tokens: int | None) -> NumericSetting:
    """The setting a loaded model runs in with these batches."""
    import torch
    import transformers

    return NumericSetting(
        device=backend.device,
        dtype=backend.dtype,
        attn_implementation=backend.attn_implementation,
        batch_size=batch_size,
        batch_tokens=batch_tokens,
        device_name=device_name(backend.device),
        torch_version=torch.__version__,
        transformers_version=transformers.__version__,
        cuda_version=torch.version.cuda,
    )
