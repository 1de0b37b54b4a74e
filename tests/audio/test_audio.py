"""``paddle.audio``: functional, windows, feature layers (values and input gradients) and WAV input/output, each
against Paddle 3.3.1's results recorded by ``tests/record_paddle_audio.py`` (tests/data/paddle_audio.json). The same
``tests/audio_cases.py::record`` runs here with pylayer_jax, so both sides make the very same calls.

Tolerances: float32 results agree to float32 rounding relative to each array's largest value (Paddle and XLA round
the FFT and the logarithms differently); float64 ones to ~1e-10. The float32 MFCC gradient is looser (the log of the
near-empty mel bands amplifies rounding); its float64 twin is checked tightly.
"""

from __future__ import annotations

import json
import pathlib
import wave

import audio_cases
import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax.audio import functional as AF

REC = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "paddle_audio.json").read_text())


@pytest.fixture(scope="module")
def ours(tmp_path_factory):
    return json.loads(json.dumps(audio_cases.record(paddle, str(tmp_path_factory.mktemp("audio")))))


def _close(got, want, f64=False, scale_tol=None):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape
    tol = scale_tol if scale_tol is not None else (1e-10 if f64 else 2e-6)
    np.testing.assert_allclose(got, want, rtol=0, atol=tol * max(np.abs(want).max(initial=0.0), 1e-30))


def test_mel_scale_conversions(ours):
    for key in ("hz_to_mel_float", "mel_to_hz_float"):
        np.testing.assert_allclose(ours[key], REC[key], rtol=1e-13)
    for dt in ("float32", "float64"):
        for h in (False, True):
            o, r = ours[f"hz_to_mel_{dt}_{h}"], REC[f"hz_to_mel_{dt}_{h}"]
            assert o["dtype"] == r["dtype"] == dt
            for part in ("mel", "grad", "back"):
                _close(o[part], r[part], dt == "float64")
            if dt == "float64":
                np.testing.assert_allclose(o["back"], audio_cases.HZ[1:], rtol=1e-9)  # a round trip


def test_frequencies_fbank_dct_and_decibels(ours):
    for h in (False, True):
        for dt in ("float32", "float64"):
            _close(ours[f"mel_frequencies_{h}_{dt}"], REC[f"mel_frequencies_{h}_{dt}"], dt == "float64")
    _close(ours["fft_frequencies"], REC["fft_frequencies"])
    _close(ours["fft_frequencies_f64_odd"], REC["fft_frequencies_f64_odd"], True)
    for key in ("slaney", "htk_fmax", "l1", "l2_f64", "none"):
        o, r = ours[f"fbank_{key}"], REC[f"fbank_{key}"]
        assert o["dtype"] == r["dtype"]
        _close(o["values"], r["values"], o["dtype"] == "float64")
    for key in ("default", "ref_amin", "no_top", "top20"):
        for part in ("values", "grad"):
            _close(ours[f"power_to_db_{key}"][part], REC[f"power_to_db_{key}"][part])
    for norm in ("ortho", "None"):
        for dt in ("float32", "float64"):
            o, r = ours[f"dct_{norm}_{dt}"], REC[f"dct_{norm}_{dt}"]
            assert o["shape"] == r["shape"] == [20, 13]
            _close(o["values"], r["values"], dt == "float64")
    assert REC["power_to_db_errors"] == ["Exception"] * 3  # Paddle raises a bare Exception; ValueError is one
    for call, match in [(lambda s: AF.power_to_db(s, amin=0.0), r"power_to_db: amin must be strictly positive"),
                        (lambda s: AF.power_to_db(s, ref_value=-1.0), r"ref_value must be strictly positive"),
                        (lambda s: AF.power_to_db(s, top_db=-1.0), r"top_db must be non-negative")]:
        with pytest.raises(ValueError, match=match):
            call(paddle.ones([2]))
    with pytest.raises(ValueError, match=r"compute_fbank_matrix: norm must be 'slaney', a number .* received 'l2'"):
        AF.compute_fbank_matrix(8000, 64, norm="l2")
    with pytest.raises(TypeError, match=r"hz_to_mel: freq must be a Tensor or a Python number, but received ndarray"):
        AF.hz_to_mel(np.ones(3))


def test_windows(ours):
    assert ours["windows"].keys() == REC["windows"].keys()
    for key, r in REC["windows"].items():
        o = ours["windows"][key]
        assert o["dtype"] == r["dtype"], key
        _close(o["values"], r["values"], r["dtype"] == "float64", None if r["dtype"] == "float64" else 1e-6)
    assert ours["window_default_dtype"] == REC["window_default_dtype"] == "float64"
    assert ours["window_errors"] == REC["window_errors"]
    with pytest.raises(ValueError, match=r"The 'kaiser' window needs one or more parameters -- pass a tuple"):
        AF.get_window("kaiser", 8)
    with pytest.raises(ValueError, match=r"Unknown window type 'nope'"):
        AF.get_window("nope", 8)
    with pytest.raises(ValueError, match=r"Window length M must be a non-negative integer, but received -1"):
        AF.get_window("hann", -1)
    with pytest.raises(ValueError, match=r"If sym==True, center must be None"):
        AF.get_window(("exponential", 2.0, 1.0), 8, fftbins=False)
    with pytest.raises(TypeError, match=r"the 'hann' window takes 0 parameter\(s\) after the length, but received 1"):
        AF.get_window(("hann", 3.0), 8)


@pytest.mark.parametrize("key", list(audio_cases.FEATURES))
def test_feature_layers(ours, key):
    o, r = ours["features"][key], REC["features"][key]
    f64 = audio_cases.FEATURES[key][1].get("dtype") == "float64"
    assert o["shape"] == r["shape"] and o["state_dict"] == r["state_dict"]
    _close(o["values"], r["values"], f64, None if f64 else 5e-6)
    if "grad" in r:
        _close(o["grad"], r["grad"], f64, None if f64 else (1e-3 if key == "mfcc" else 2e-5))
    for name, value in r.get("buffers", {}).items():
        _close(o["buffers"][name], value)


def test_feature_errors(ours):
    # Paddle asserts (an AssertionError); these raise ValueError, as this package does for argument rules
    assert REC["feature_errors"] == {"mfcc_too_many": "AssertionError", "power_zero": "AssertionError"}
    assert ours["feature_errors"] == {"mfcc_too_many": "ValueError", "power_zero": "ValueError"}
    with pytest.raises(ValueError, match=r"MFCC: n_mfcc cannot be larger than n_mels: 20 vs 10"):
        paddle.audio.features.MFCC(n_mfcc=20, n_mels=10)
    with pytest.raises(ValueError, match=r"Spectrogram: Power of spectrogram must be > 0, but received 0.0"):
        paddle.audio.features.Spectrogram(power=0.0)


def test_wav_save_load_info(ours, tmp_path):
    assert ours["saved"] == REC["saved"] and ours["saved_int16"] == REC["saved_int16"]
    assert ours["info"] == REC["info"]
    for key, r in REC["loads"].items():
        o = ours["loads"][key]
        assert [o["sr"], o["dtype"]] == [r["sr"], r["dtype"]]
        np.testing.assert_array_equal(np.array(o["values"]), np.array(r["values"]))
    assert ours["load_file_object_equal"] is REC["load_file_object_equal"] is True
    assert ours["wav_errors"] == REC["wav_errors"]
    assert ours["backends"] == REC["backends"]
    bad = tmp_path / "not.wav"
    bad.write_bytes(b"plain text")
    with pytest.raises(NotImplementedError, match=r"paddle.audio.load: .*not.wav' is not a WAV file .*only PCM16"):
        paddle.audio.load(str(bad))
    eight = tmp_path / "eight.wav"
    with wave.open(str(eight), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(8000)
        w.writeframes(bytes(range(10)))
    with pytest.raises(NotImplementedError, match=r"load: the file holds 8-bit samples; only PCM16 WAV supported"):
        paddle.audio.load(str(eight))
    with pytest.raises(ValueError, match=r"save: Invalid bits_per_sample 8, only support 16 bit"):
        paddle.audio.save(str(tmp_path / "x.wav"), paddle.zeros([1, 4]), 8000, bits_per_sample=8)
    with pytest.raises(TypeError, match=r"save: src must be float32 .* or int16, but received float64"):
        paddle.audio.save(str(tmp_path / "x.wav"), paddle.zeros([1, 4], "float64"), 8000)
    with pytest.raises(ValueError, match=r"save: src must be a 2-D Tensor"):
        paddle.audio.save(str(tmp_path / "x.wav"), paddle.zeros([4]), 8000)
    with pytest.raises(NotImplementedError, match=r"set_backend: the backend 'soundfile' is not available"):
        paddle.audio.backends.set_backend("soundfile")
