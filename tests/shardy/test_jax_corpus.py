"""The JAX corpus itself: big enough, deterministic, and covering what the program layer must read."""
import re
import pytest
from tests.corpus.programs import CORPUS_NAMES, jax_corpus, lower_in_subprocess   # noqa: F401  (jax_corpus is a fixture)

pytest.importorskip("jax")


def test_corpus_is_large_enough():
    assert len(CORPUS_NAMES) >= 100


def test_lowering_is_deterministic(jax_corpus, tmp_path, seed):
    # lower a few programs again in a fresh process: the same text, byte for byte
    import random
    names = random.Random(seed).sample(CORPUS_NAMES, 4)
    lower_in_subprocess(tmp_path, names)
    for n in names: assert (tmp_path / f"{n}.mlir").read_text() == jax_corpus[n], n


# What the corpus must contain: each feature, as the text JAX prints for it.
FEATURES = {
    "sdy mesh of 1 axis": r'sdy\.mesh @\w+ = <\["\w+"=\d+\]>',
    "sdy mesh of 3 axes": r'sdy\.mesh @\w+ = <\[("\w+"=\d+, ){2}"\w+"=\d+\]>',
    "sdy mesh of 4 axes": r'sdy\.mesh @\w+ = <\[("\w+"=\d+, ){3}"\w+"=\d+\]>',
    "size-1 mesh axis": r'sdy\.mesh @\w+ = <\[[^\]]*"\w+"=1\b',
    "mesh with device ids": r"device_ids=\[",
    "argument sharding": r"sdy\.sharding = #sdy\.sharding<@",
    "sharding constraint": r"sdy\.sharding_constraint",
    "manual computation (shard_map)": r"sdy\.manual_computation",
    "nested manual computation": r"(?s)sdy\.manual_computation.*\n\s{6,}%\S+ = sdy\.manual_computation",
    "partially manual": r'manual_axes=\{"x"\}',
    "shard_alike (sharding group)": r"sdy\.sharding_group",
    "while loop": r"stablehlo\.while",
    "call inside a while body": r"(?s)stablehlo\.while.*\n\s{6,}%\S+ = func\.call @",
    "case (cond)": r"stablehlo\.case",
    "select (short form)": r"stablehlo\.select %\S+, %\S+, %\S+ : tensor<[^>]*xi1>, tensor",
    "gather": r"stablehlo\.gather|\"stablehlo\.gather\"",
    "scatter": r"stablehlo\.scatter|\"stablehlo\.scatter\"",
    "convolution": r"stablehlo\.convolution",
    "reduce_window": r"stablehlo\.reduce_window|\"stablehlo\.reduce_window\"",
    "select_and_scatter": r"stablehlo\.select_and_scatter",
    "sort": r"stablehlo\.sort|\"stablehlo\.sort\"",
    "top_k": r"chlo\.top_k",
    "chlo erf_inv": r"chlo\.erf_inv",
    "variadic reduce (argmax)": r"%\S+:2 = stablehlo\.reduce\(",
    "three-input reduce": r"%\S+:3 = stablehlo\.reduce\(",
    "reduce inputs sharing an init value": r"stablehlo\.reduce\(%\S+ init: (%\S+)\), \(%\S+ init: \1\)",
    "dot_general": r"stablehlo\.dot_general",
    "bf16": r"xbf16>",
    "complex": r"xcomplex<f32>>",
    "complex128": r"xcomplex<f64>>",
    "fft": r"stablehlo\.fft",
    "rng / threefry": r"threefry|stablehlo\.rng_bit_generator",
    "donation": r"tf\.aliasing_output|jax\.buffer_donor",
    "debug locations": r'#loc\d* = loc\("',
    "location in a region signature": r"\^bb0\(%\S+: [^)]*loc\(|reducer\(%\S+: [^)]* loc\(",
    "custom_call": r"stablehlo\.custom_call",
    "quoted symbol": r'@"',
    "sharding on an op result": r"%\S+ = .*sdy\.sharding = #sdy\.sharding_per_value",
    "zero-result custom_call with a sharding": r"(?m)^\s+stablehlo\.custom_call @\S+\(.*sdy\.sharding = #sdy\.sharding_per_value",
    "maximal mesh": r"sdy\.mesh @\w+ = <\[\], device_ids=\[\d+\]>",
    "empty mesh": r"sdy\.mesh @\w+ = <\[\]>",
    "zero-result custom_call in a manual computation": r"(?s)sdy\.manual_computation[^\n]*\{\n(?:\s{6,}[^\n]*\n)*?\s{6,}stablehlo\.custom_call @\S+\([^\n]*-> \(\)",
    "token values (ordered effects)": r"!stablehlo\.token",
    "attribute dict on a continuation line": r"(?m)^\s*\}\)? \{[\w.]+ = ",
    "while with an attribute dict": r"stablehlo\.while\(.*\) : .* attributes \{",
    "optimization_barrier": r"stablehlo\.optimization_barrier",
    "64-bit integer": r"xi64>",
}


@pytest.mark.parametrize("feature", sorted(FEATURES))
def test_corpus_covers(jax_corpus, feature):
    pat = re.compile(FEATURES[feature])
    assert any(pat.search(t) for t in jax_corpus.values()), f"no corpus program has {feature}"
