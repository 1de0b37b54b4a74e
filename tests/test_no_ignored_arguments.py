"""No accepted argument is silently ignored anywhere in the package.

An argument a function accepts and never reads gives a silently wrong result (``scale(act='relu')``
returning no relu, ``cdist(compute_mode=...)`` rounding the other way). The AST walk below finds, for
every function and method under ``src/pylayer_jax``, the parameters its body never reads; each must
be read (implemented, or rejected with an error when given a value that is not supported) or be listed
in ``ALLOWED`` with the reason it legitimately has no effect. The test fails on a new ignored parameter,
and on an ``ALLOWED`` entry that no longer matches (so the list stays reviewed).

Not counted as ignoring: a body that only raises (every call fails loudly), a parameter named ``_``
(the marker for a slot a calling convention fixes), ``self``/``cls``, and a body that calls
``locals()``/``vars()``. A ``**kwargs`` read only by ``.get``/``.pop``/``[...]`` drops the keys it does
not look up, so it counts as ignored too (Paddle raises ``TypeError`` for an unknown keyword).
"""

from __future__ import annotations

import ast
import json
import pathlib

import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F

PKG = pathlib.Path(__file__).resolve().parents[1] / "src" / "pylayer_jax"
DATA = json.loads((pathlib.Path(__file__).parent / "data" / "paddle_accepted_args.json").read_text())["cases"]

# ---- reasons, shared by several entries ----------------------------------------------------------
NAME = ("Paddle's name= only labels the output variable of a static graph ('Normally there is no need for user "
        "to set this property', api_guide_Name); it changes no value, and the package names outputs itself")
EXIT = "context-manager protocol: __exit__ receives the exception and does not suppress it"
EVENT = ("the step-event interface: the default observer ignores every event; the registered replay observer "
         "reads them")
HOOK = "a base-class hook a subclass overrides; the base does nothing with what it is given"
CALLBACK = "a callback hook: the caller passes step/epoch/logs to every hook, this callback needs only some"
OPTAX = "optax GradientTransformation.update(updates, state, params): this rule does not read the parameters"
CHAIN = "Optimizer._chain(h, reg, lr) signature shared by every rule; this rule does not need that input"
RUN = "Operator.run(env, ctx) signature shared by every static op; this op needs no run context"
DETERMINISTIC = "Initializer._sample(key, shape, dtype) signature: a deterministic initializer needs no key"
PLACEMENT = ("only says which device holds the result or whether the host waits for a copy; the values are the "
             "same, and JAX orders every later use after the copy")
PADDLE_IGNORES = "Paddle 3.3.1 ignores it as well (checked with the oracle: the same result whatever it holds)"
ONE_PROCESS = ("one process (as Paddle 3.3.1 run without a launcher, recorded in tests/distributed/): there is no "
               "group, communication or gradient synchronisation for it to tune")
AMP_OFF = ("mixed precision is off, as Paddle 3.3.1 runs it on a CPU place (recorded in tests/amp/test_amp.py): "
           "what it would tune changes nothing")

GRAPH_BUFFER = ("Paddle's GPU kernel reuses these preallocated buffers for speed (reindex_graph's docs); the values "
                "do not depend on them")
ALLOWED: dict[str, str] = {
    "cost_model/__init__.py::CostModel.profile_measure::fetch_cost_list": PADDLE_IGNORES,
    "quantization/_layers.py::_StraightThrough.forward::ctx": "PyLayer.forward(ctx, ...): nothing to save",
    "quantization/_layers.py::_StraightThrough.backward::ctx": "PyLayer.backward(ctx, grad): nothing was saved",
    "quantization/_layers.py::_StraightThrough.forward::x": ("the Tensor the gradient passes straight through to: "
                                                             "an input so that it gets one, its value unused"),
    "quantization/base_quanter.py::BaseQuanter.forward::input": HOOK,
    "quantization/quantize.py::Quantization.quantize::inplace": HOOK,
    "quantization/quantize.py::Quantization.quantize::model": HOOK,
    **{f"quantization/{f}::layer": ("a factory makes each quanter with the layer it quantizes (Paddle's signature); "
                                    "an abs-max quanter needs only the values passing through it")
       for f in ("observers/abs_max.py::AbsmaxObserverLayer.__init__",
                 "quanters/abs_max.py::FakeQuanterWithAbsMaxObserverLayer.__init__")},
    **{f"incubate/cc/__init__.py::compile::{a}": ("chooses the files, device and framework of Paddle's kernel "
                                                  "generator; XLA compiles for the device JAX runs on")
       for a in ("ap_workspace_dir", "backend_device", "target_framework")},
    **{f"onnx/__init__.py::export::{a}": "export raises ImportError (no ONNX converter), after checking the others"
       for a in ("input_spec", "configs")},
    **{f"_api/compat.py::{f}::name": NAME for f in ("vstack", "row_stack", "hstack", "dstack", "column_stack")},
    "_api/compat.py::as_tensor::pin_memory": PLACEMENT,
    "_api/compat.py::asarray::copy": PADDLE_IGNORES + " (its docs: 'This param is ignored and has no effect')",
    **{f"geometric/__init__.py::{f}::name": NAME for f in ("segment_sum", "segment_mean", "segment_max", "segment_min",
                                                         "send_u_recv", "send_ue_recv", "send_uv", "reindex_graph",
                                                         "reindex_heter_graph")},
    **{f"geometric/_sampling.py::{f}::name": NAME for f in ("sample_neighbors", "weighted_sample_neighbors")},
    **{f"incubate/_graph.py::{f}::name": NAME for f in ("graph_sample_neighbors", "graph_reindex",
                                                        "graph_khop_sampler")},
    **{f"geometric/__init__.py::{f}::{b}": GRAPH_BUFFER for f in ("reindex_graph", "reindex_heter_graph")
       for b in ("value_buffer", "index_buffer")},
    "_api/irregular.py::where::name": NAME,
    **{f"nn/quant.py::{f}.forward::name": NAME for f in ("add", "subtract", "multiply", "divide", "reshape",
                                                          "transpose", "concat", "flatten", "matmul")},
    "_ops/sorting.py::_gradient_only::w": "read by its custom JVP only: the value is zeros, w is the derivative it "
        "routes along x (median ties, NaN-safe)",
    "_ops/nn.py::_normalize_p_norm::epsilon": "read by its custom JVP (the derivative of Paddle's p_norm adds it); "
                                              "the norm itself has none",
    "_tensor/methods.py::lstsq::name": NAME,
    "distribution/_continuous_extra.py::Cauchy.sample::name": NAME,
    "distribution/_continuous_extra.py::Cauchy.rsample::name": NAME,
    "distribution/_transform.py::AffineTransform._forward_log_det_jacobian::x": "an affine map's log-Jacobian is "
    "log|scale| wherever it is taken: the point does not change it",
    "_runtime/size.py::Size.__deepcopy__::memo": "copy protocol: a Size holds ints only, so its deep copy needs no memo",
    "distributed/_parallel.py::DataParallel.__init__::comm_buffer_size": ONE_PROCESS,
    "distributed/_parallel.py::DataParallel.__init__::find_unused_parameters": ONE_PROCESS,
    "distributed/_parallel.py::DataParallel.__init__::group": ONE_PROCESS,
    "distributed/_parallel.py::DataParallel.__init__::last_comm_buffer_size": ONE_PROCESS,
    "distributed/_parallel.py::DataParallel.__init__::strategy": ONE_PROCESS,
    "distributed/_collective.py::all_gather_object::obj": ONE_PROCESS + " (the call raises before sending it)",
    "distributed/_collective.py::new_group::nccl_config": ONE_PROCESS,
    "distributed/_collective.py::new_group::timeout": ONE_PROCESS,
    "distributed/_parallel.py::init_parallel_env::nccl_config": ONE_PROCESS,
    "amp/_auto_cast.py::auto_cast::use_promote": AMP_OFF,
    "static/amp/__init__.py::OptimizerWithMixedPrecision.amp_init::place": AMP_OFF,
    "static/amp/__init__.py::OptimizerWithMixedPrecision.amp_init::scope": AMP_OFF,
    "static/amp/__init__.py::OptimizerWithMixedPrecision.amp_init::test_program": AMP_OFF,
    "static/amp/__init__.py::decorate::use_amp_guard": AMP_OFF,
    "static/amp/__init__.py::decorate::use_dynamic_loss_scaling": AMP_OFF,
    "static/amp/__init__.py::decorate::use_fp16_guard": AMP_OFF,
    "static/amp/__init__.py::decorate::use_promote": AMP_OFF,
    "static/_control_flow.py::case::name": NAME,
    "static/_control_flow.py::switch_case::name": NAME,
    "static/_metric.py::AucOp.run::ctx": RUN,
    "static/_py_func.py::PyFuncOp.run::ctx": RUN,
    "_ops/legacy_layers.py::_cvm_core::cvm": "cvm's show/click input only feeds the backward (its custom VJP hands it "
    "to the first two columns, as Paddle's kernel does); the forward reads x alone",
    "amp/_auto_cast.py::autocast::cache_enabled": AMP_OFF,
    "amp/_auto_cast.py::autocast::device_type": AMP_OFF,
    "amp/_auto_cast.py::decorate::excluded_layers": AMP_OFF,
    "amp/_auto_cast.py::decorate::master_grad": AMP_OFF,
    "amp/_auto_cast.py::decorate::master_weight": AMP_OFF,
    "amp/_auto_cast.py::decorate::save_dtype": AMP_OFF,
    "amp/_auto_cast.py::get_autocast_dtype::device_type": AMP_OFF,
    "amp/_auto_cast.py::is_autocast_enabled::device_type": AMP_OFF,
    "amp/_auto_cast.py::is_bfloat16_supported::device": AMP_OFF,
    "amp/_auto_cast.py::is_float16_supported::device": AMP_OFF,
    "amp/_grad_scaler.py::AmpScaler.unscale_::optimizer": AMP_OFF,
    "_tensor/step_events.py::StepEvents.apply_begin::inputs": EVENT,
    "_tensor/step_events.py::StepEvents.plain_op::key": EVENT,
    "_tensor/step_events.py::StepEvents.plain_op::leaves": EVENT,
    "_tensor/step_events.py::StepEvents.plain_op::op": EVENT,
    "_tensor/step_events.py::StepEvents.write::t": EVENT,
    "_tensor/step_events.py::StepEvents.apply_end::inputs": EVENT,
    "_tensor/step_events.py::StepEvents.apply_end::node": EVENT,
    "_tensor/step_events.py::StepEvents.apply_end::ok": EVENT,
    "_tensor/step_events.py::StepEvents.apply_end::out": EVENT,
    "_tensor/step_events.py::StepEvents.apply_end::token": EVENT,
    "_tensor/step_events.py::StepEvents.apply_noted::inputs": EVENT,
    "_tensor/step_events.py::StepEvents.apply_noted::needs": EVENT,
    "_tensor/step_events.py::StepEvents.apply_noted::node": EVENT,
    "_tensor/step_events.py::StepEvents.apply_noted::out": EVENT,
    "_tensor/step_events.py::StepEvents.apply_noted::token": EVENT,
    "_tensor/step_events.py::StepEvents.backward::t": EVENT,
    "_tensor/step_events.py::StepEvents.backward_begin::t": EVENT,
    "_tensor/step_events.py::StepEvents.backward_end::token": EVENT,
    "_tensor/step_events.py::StepEvents.callout_begin::cts": EVENT,
    "_tensor/step_events.py::StepEvents.callout_begin::node": EVENT,
    "_tensor/step_events.py::StepEvents.callout_begin::walk": EVENT,
    "_tensor/step_events.py::StepEvents.callout_end::grads": EVENT,
    "_tensor/step_events.py::StepEvents.callout_end::token": EVENT,
    "_tensor/step_events.py::StepEvents.op::early": EVENT,
    "_tensor/step_events.py::StepEvents.op::key": EVENT,
    "_tensor/step_events.py::StepEvents.op::leaves": EVENT,
    "_tensor/step_events.py::StepEvents.op::op": EVENT,
    "_tensor/step_events.py::StepEvents.op_end::arrays": EVENT,
    "_tensor/step_events.py::StepEvents.op_end::key": EVENT,
    "_tensor/step_events.py::StepEvents.op_end::leaf_param": EVENT,
    "_tensor/step_events.py::StepEvents.op_end::leaves": EVENT,
    "_tensor/step_events.py::StepEvents.op_end::needs": EVENT,
    "_tensor/step_events.py::StepEvents.op_end::node": EVENT,
    "_tensor/step_events.py::StepEvents.op_end::op": EVENT,
    "_tensor/step_events.py::StepEvents.op_end::out": EVENT,
    "_tensor/step_events.py::StepEvents.op_end::token": EVENT,
    "_autograd/graph.py::OpNode.backward::walk": "the backward(cts, diff, walk) signature of every tape node; a table op's node runs no callouts, so it needs no walk state",
    "_api/functional.py::scale::name": NAME,
    "_api/fft.py::_make_1d.fn::name": NAME,
    "_api/fft.py::_make_nd.fn::name": NAME,
    "_api/fft.py::fftfreq::name": NAME,
    "_api/fft.py::rfftfreq::name": NAME,
    "_api/fft.py::fftshift::name": NAME,
    "_api/fft.py::ifftshift::name": NAME,
    "_api/signal.py::stft::name": NAME,
    "_api/signal.py::istft::name": NAME,
    "_api/signal.py::frame::name": NAME,
    "_api/signal.py::overlap_add::name": NAME,
    "_api/sampling.py::top_p_sampling::name": NAME,
    "_api/storage.py::resize_::name": NAME,
    "_api/storage.py::set_::name": NAME,
    "_api/storage.py::resize_::fill_zero": (
        "Paddle 3.3.1 leaves the added elements undetermined without fill_zero ('the filled value will be "
        "undetermined') and zeroes them with it; zeros are such a value, so both settings give zeros "
        "(tests/tensor/test_storage.py)"),
    "nn/_functional.py::adaptive_log_softmax_with_loss::name": NAME,
    "nn/_functional.py::cross_entropy::name": NAME,
    "nn/layer/_decode.py::BeamSearchDecoder.finalize::sequence_lengths": (
        "the Decoder.finalize(outputs, final_states, sequence_lengths) interface dynamic_decode calls; beam search "
        "traces its sequences back from the parent ids and needs no lengths"),
    "nn/layer/_decode.py::BeamSearchDecoder.step::time": (
        "the Decoder.step(time, inputs, states) interface dynamic_decode calls; a beam-search step does not "
        "depend on the step number"),
    "nn/layer/_decode.py::dynamic_decode::is_test": (
        "Paddle's is_test only lets its static-graph while loop release the memory of past steps; eager decoding "
        "gives the same results (Paddle's own eager dynamic_decode does not read it either)"),
    "nn/_functional.py::hsigmoid_loss::name": NAME,
    "nn/_functional_fused.py::flash_attn_qkvpacked::name": NAME,
    "nn/_functional_fused.py::flash_attn_varlen_qkvpacked::name": NAME,
    "nn/_functional_fused.py::flashmask_attention::name": NAME,
    "nn/_functional_fused.py::sparse_attention::name": NAME,
    "nn/_functional_fused.py::rms_norm::name": NAME,
    "nn/_functional_fused.py::moe_permute::name": NAME,
    "nn/_functional_fused.py::moe_unpermute::name": NAME,
    "nn/_functional.py::interpolate::name": NAME,
    "nn/utils.py::parameters_to_vector::name": NAME,
    "nn/utils.py::vector_to_parameters::name": NAME,
    "_api/irregular.py::unique::name": NAME,
    "_api/irregular.py::unique_consecutive::name": NAME,
    "_api/irregular.py::bincount::name": NAME,
    "_api/irregular.py::take::name": NAME,
    "_api/irregular.py::diff::name": NAME,
    "_api/surface.py::index_put::name": NAME,
    "_api/surface.py::index_put_::name": NAME,
    "_api/surface.py::_index_put_method::name": NAME,
    "_api/surface.py::_masked_select_method::name": NAME,
    "_api/surface.py::uniform_::name": NAME,
    "_api/histogramdd.py::histogramdd::name": NAME,
    "_api/histogramdd.py::_histogramdd_method::name": NAME,
    "_api/random_fills.py::normal_::name": NAME,
    "_api/random_fills.py::log_normal_::name": NAME,
    "_api/random_fills.py::bernoulli_::name": NAME,
    "_api/random_fills.py::cauchy_::name": NAME,
    "_api/random_fills.py::exponential_::name": NAME,
    "_api/random_fills.py::geometric_::name": NAME,
    "_api/random_fills.py::random_::generator": (PADDLE_IGNORES + "; Paddle documents it as a placeholder for a "
                                                 "generator, and both draw from the global one"),
    "_api/surface.py::_copy_::blocking": "eager arrays are written at once: there is no asynchronous copy to wait on",
    "_api/irregular.py::index_add::name": NAME,
    "_api/irregular.py::index_fill::name": NAME,
    "_api/irregular.py::histogram::name": NAME,
    "_api/irregular.py::where_::name": NAME,
    "_api/random.py::uniform::name": NAME,
    "_api/random.py::rand::name": NAME,
    "_api/random.py::rand_like::name": NAME,
    "_api/random.py::randn::name": NAME,
    "_api/random.py::standard_normal::name": NAME,
    "_api/random.py::randn_like::name": NAME,
    "_api/random.py::normal::name": NAME,
    "_api/random.py::randint::name": NAME,
    "_api/random.py::randint_like::name": NAME,
    "_api/random.py::randperm::name": NAME,
    "_api/random.py::bernoulli::name": NAME,
    "_api/random.py::multinomial::name": NAME,
    "_api/random.py::poisson::name": NAME,
    "_api/variadic.py::atleast_1d::name": NAME,
    "_api/variadic.py::atleast_2d::name": NAME,
    "_api/variadic.py::atleast_3d::name": NAME,
    "_api/variadic.py::masked_select::name": NAME,
    "_api/variadic.py::cov::name": NAME,
    "_api/linalg_lowrank.py::svd_lowrank::name": NAME,
    "_api/linalg_lowrank.py::pca_lowrank::name": NAME,
    "_api/linalg_lowrank.py::_svd_lowrank_method::name": NAME,
    "_api/linalg_lowrank.py::_pca_lowrank_method::name": NAME,
    "_api/linalg_lowrank.py::_cov_method::name": NAME,
    "_ops/linalg_factor.py::lu::pivot": ("the op's checks refuse pivot=False (as Paddle on the CPU), so the factor "
                                         "always pivots"),
    "metric/_metrics.py::accuracy::name": NAME,
    "nn/_functional.py::dropout::name": NAME,
    "nn/_functional.py::embedding::name": NAME,
    "nn/_functional.py::one_hot::name": NAME,
    "nn/_functional.py::layer_norm::name": NAME,
    "nn/_functional.py::binary_cross_entropy_with_logits::name": NAME,
    "nn/_functional.py::batch_norm::name": NAME,
    "nn/_functional.py::group_norm::name": NAME,
    "nn/_functional.py::multi_margin_loss::name": NAME,
    "nn/_functional.py::triplet_margin_with_distance_loss::name": NAME,
    "nn/_functional.py::sequence_mask::name": NAME,
    "nn/_functional.py::dropout2d::name": NAME,
    "nn/_functional.py::dropout3d::name": NAME,
    "nn/_functional.py::alpha_dropout::name": NAME,
    "nn/_functional.py::feature_alpha_dropout::name": NAME,
    "nn/_functional.py::rrelu::name": NAME,
    "nn/_functional.py::gumbel_softmax::name": NAME,
    "nn/_functional.py::scaled_dot_product_attention::name": NAME,
    "nn/_functional.py::silu::name": NAME,
    "nn/_functional.py::relu_::name": NAME,
    "nn/_functional.py::elu_::name": NAME,
    "nn/_functional.py::hardtanh_::name": NAME,
    "nn/_functional.py::leaky_relu_::name": NAME,
    "nn/_functional.py::softmax_::name": NAME,
    "nn/_functional.py::tanh_::name": NAME,
    "nn/_functional.py::thresholded_relu_::name": NAME,
    "nn/initializer/_base.py::Uniform.__init__::name": NAME,
    "nn/initializer/_base.py::Normal.__init__::name": NAME,
    "nn/initializer/_base.py::TruncatedNormal.__init__::name": NAME,
    "nn/initializer/_base.py::Assign.__init__::name": NAME,
    "nn/initializer/_scaled.py::XavierUniform.__init__::name": NAME,
    "nn/initializer/_scaled.py::XavierNormal.__init__::name": NAME,
    "nn/initializer/_scaled.py::Orthogonal.__init__::name": NAME,
    "nn/initializer/_scaled.py::Dirac.__init__::name": NAME,
    "nn/layer/_norm.py::LayerNorm.__init__::name": NAME,
    "nn/layer/_norm.py::GroupNorm.__init__::name": NAME,
    "nn/layer/_norm.py::_InstanceNormBase.__init__::name": NAME,
    "nn/layer/_rnn.py::SimpleRNNCell.__init__::name": NAME,
    "nn/layer/_rnn.py::LSTMCell.__init__::name": NAME,
    "nn/layer/_rnn.py::GRUCell.__init__::name": NAME,
    "nn/layer/_rnn.py::SimpleRNN.__init__::name": NAME,
    "nn/layer/_rnn.py::LSTM.__init__::name": NAME,
    "nn/layer/_rnn.py::GRU.__init__::name": NAME,
    "static/_control_flow.py::cond::name": NAME,
    "static/_control_flow.py::while_loop::name": NAME,
    # protocols
    "_autograd/grad_mode.py::_GradMode.__exit__::exc": EXIT,
    "distributed/fleet/recompute/recompute.py::_Nothing.__exit__::exc": EXIT,
    "distributed/fleet/recompute/recompute.py::_RandomState.__exit__::exc": EXIT,
    "distributed/fleet/recompute/recompute.py::_without_reentrant.pack::x": "a saved-tensor pack hook: recompute "
    "keeps only the count of what was saved, and backward recomputes the values",
    "device/_query.py::device_guard.__exit__::exc": EXIT,
    "device/_streams.py::stream_guard.__exit__::exc": EXIT,
    "nn/initializer/lazy_init.py::LazyGuard.__exit__::exc": EXIT,
    "profiler/_profiler.py::Profiler.__exit__::exc": EXIT,
    "profiler/_profiler.py::RecordEvent.__exit__::exc": EXIT,
    "profiler/_profiler.py::_always_record::step": "the default profiler scheduler: every step is recorded, "
                                                   "whichever it is",
    "_runtime/state.py::grad_mode.__exit__::exc": EXIT,
    "_tensor/saved_hooks.py::saved_tensors_hooks.__exit__::exc": EXIT,
    "_replay/follow.py::Step.__deepcopy__::memo": "copy protocol: the step is immutable and returns itself",
    "_tensor/facade.py::Tensor.__reduce_ex__::protocol": "pickle protocol: the same state for every protocol",
    "_tensor/dlpack.py::_Capsule.__dlpack__::args": "DLPack protocol: a bare capsule cannot be re-exported with "
                                                    "another stream/device/copy, it is handed over as it is",
    "_tensor/dlpack.py::_Capsule.__dlpack__::kwargs": "DLPack protocol (see args)",
    # base-class hooks with an empty body
    **{f"hapi/_callbacks.py::Callback.{h}::{p}": HOOK for h, ps in {
        "on_train_begin": ("logs",), "on_train_end": ("logs",), "on_eval_begin": ("logs",), "on_eval_end": ("logs",),
        "on_predict_begin": ("logs",), "on_predict_end": ("logs",), "on_epoch_begin": ("epoch", "logs"),
        "on_epoch_end": ("epoch", "logs"), "on_train_batch_begin": ("step", "logs"),
        "on_train_batch_end": ("step", "logs"), "on_eval_batch_begin": ("step", "logs"),
        "on_eval_batch_end": ("step", "logs"), "on_predict_batch_begin": ("step", "logs"),
        "on_predict_batch_end": ("step", "logs")}.items() for p in ps},
    **{f"hapi/_callbacks.py::{c}::{p}": CALLBACK for c, ps in {
        "ProgBarLogger.on_train_begin": ("logs",), "ProgBarLogger.on_epoch_begin": ("logs",),
        "ProgBarLogger.on_train_batch_begin": ("step", "logs"), "ProgBarLogger.on_train_batch_end": ("step",),
        "ProgBarLogger.on_epoch_end": ("epoch",), "ProgBarLogger.on_eval_batch_begin": ("step", "logs"),
        "ProgBarLogger.on_eval_batch_end": ("step",), "ProgBarLogger.on_predict_batch_begin": ("step", "logs"),
        "ProgBarLogger.on_predict_batch_end": ("step",), "ModelCheckpoint.on_epoch_begin": ("logs",),
        "ModelCheckpoint.on_epoch_end": ("logs",), "ModelCheckpoint.on_train_end": ("logs",),
        "LRScheduler.on_epoch_end": ("epoch", "logs"), "LRScheduler.on_train_batch_end": ("step", "logs"),
        "EarlyStopping.on_train_begin": ("logs",), "ReduceLROnPlateau.on_train_begin": ("logs",)}.items()
       for p in ps},
    # internal signatures fixed by their callers
    "_ops/checks.py::no_checks::op": "the checks(op, args) signature of the op table; this op has none",
    "_ops/checks.py::no_checks::a": "the checks(op, args) signature of the op table; this op has none",
    "_ops/nn.py::_softmax_vjp::dtype": "an explicit VJP receives every attribute of its op; the gradient of "
                                       "softmax in the output's dtype does not depend on the compute dtype",
    "_ops/nn.py::_log_softmax_vjp::dtype": "as _softmax_vjp",
    "_ops/nn.py::_embedding_sparse_vjp::padding_idx": "an explicit VJP receives every attribute of its op; Paddle's "
                                                      "sparse gradient does not leave the padding row out",
    "_ops/nn.py::embedding_sparse::looked_up": "only its gradient is used (the lookup count of each row: "
                                               "nn._sparse_rows); its value never is",
    "_ops/loss.py::_ce_checks::op": "the checks(op, args) signature; the message names the public function "
                                    "(cross_entropy), not the internal op that runs it",
    "_ops/loss.py::_nll_checks::op": "the checks(op, args) signature; the message names the public nll_loss",
    "_ops/norm.py::_instance_norm_vjp::eps": "an explicit VJP receives every attribute of its op; the saved "
                                             "inverse standard deviation already holds epsilon",
    "_ops/norm.py::_instance_norm_vjp::momentum": "an explicit VJP receives every attribute of its op; the running "
                                                  "statistics have no gradient",
    "_ops/norm.py::_instance_norm_vjp::use_input_stats": "an explicit VJP receives every attribute of its op; "
                                                         "the op always normalises by the input's statistics",
    "_ops/nn.py::_dropout_residuals_vjp::training": "an explicit VJP receives every attribute of its op; the form "
                                                    "runs only in training (it raises otherwise)",
    "_ops/nn.py::_hardsigmoid_vjp::offset": "an explicit VJP receives every attribute of its op; the derivative, "
                                            "read from the saved output, does not depend on the offset",
    **{f"_ops/activation.py::_rrelu_vjp::{p}": "an explicit VJP receives every attribute of its op; the saved "
                                                "noise already holds the slopes" for p in ("lower", "upper", "training")},
    **{f"_ops/sequence_loss.py::_rnnt_vjp::{p}": "an explicit VJP receives every attribute of its op; the saved "
                                                 "gradient already holds the blank and the FastEmit scaling"
       for p in ("blank", "fastemit_lambda")},
    **{f"_ops/pool_fractional.py::_scatter_vjp::{p}": "an explicit VJP receives every attribute of its op; the saved "
                                                      "index mask already holds the pooling regions"
       for p in ("output_size", "kernel_size")},
    "_ops/sequence_loss.py::_rnnt_checks::op": "the checks(op, args) signature; the messages name the public "
                                               "function rnnt_loss, not the op warprnnt",
    "nn/_functional.py::fractional_max_pool2d::name": NAME,
    "nn/_functional.py::fractional_max_pool3d::name": NAME,
    "nn/_functional.py::rnnt_loss::name": NAME,
    **{f"_ops/sequence_loss.py::_ctc_residuals_vjp::{p}": "an explicit VJP receives every attribute of its op; the "
                                                          "saved gradient already holds the blank and the frame "
                                                          "normalisation" for p in ("blank", "norm_by_times")},
    "_ops/loss_extra.py::_swce_vjp.rule::numeric_stable_mode": "an explicit VJP receives every attribute of its op; "
                                                               "the gradient reads the saved softmax",
    "_ops/loss_extra.py::_swce_vjp.rule::return_softmax": "an explicit VJP receives every attribute of its op; "
                                                          "which output holds the softmax is fixed per form",
    "_ops/pool_conv_residuals.py::_conv1d_form.residuals::outs": "the residuals(args, outs) signature of "
                                                                 "residual_form; a convolution keeps views of its "
                                                                 "inputs only",
    "_ops/pool_conv_residuals.py::_mask_form.grads::a": "the grads(args, saved, cts, hidden cts) signature of "
                                                        "residual_form; the mask's scatter needs no attribute",
    "static/_while_grad.py::_loop_bwd::cond_c": "jax.custom_vjp passes every non-differentiable argument to the "
                                                "backward rule; the backward replays the recorded trip count "
                                                "through the body alone",
    "static/_program.py::WriteOp.run::ctx": RUN,
    "static/_save.py::load::executor": "Paddle reads the executor only for the device to load onto; values go "
                                       "to the global scope, which serves every executor here",
    "_tensor/backward_entry.py::_drop_grad::g": "a gradient hook that replaces the gradient by None whatever it is",
    "_tensor/backward_entry.py::grad::retain_graph": "Paddle 3.3.1's paddle.grad keeps the graph whatever it says "
                                                    "(a second paddle.grad on the same outputs works there too)",
    "nn/layer/_rnn.py::_BuiltinCell._final::c": "internal; the cell's final state without the LSTM cell state",
    "nn/layer/_rnn.py::RNNBase.forward.st::c": "internal; as _BuiltinCell._final",
    "optimizer/_optimizer.py::Optimizer._param_hyper::p": HOOK,
    "optimizer/_optimizer.py::Optimizer._lr_ratio::p": HOOK,
    "optimizer/_regularizer.py::add_l1_decay.init::params": "optax init(params): the L1 term keeps no state",
    "optimizer/_rules.py::SGD._chain::h": CHAIN,
    "optimizer/_rules.py::Rprop._chain::lr": CHAIN + "; Paddle's Rprop reads learning_rate once, as the initial "
                                                     "step size (h['initial_lr'])",
    **{f"optimizer/_transforms.py::{r}.update::params": OPTAX for r in (
        "paddle_adam", "paddle_adamax", "paddle_adagrad", "paddle_adadelta", "paddle_rmsprop", "paddle_nadam",
        "paddle_radam", "paddle_asgd", "paddle_rprop")},
    "static/_inference_model.py::ExportedOperator.run::ctx": RUN,
    "static/_program.py::TableOp.run::ctx": RUN,
    "static/_pylayer.py::PylayerOp.run::ctx": RUN,
    "static/_program.py::_leaf_params::op": "internal; the op whose parameters are all the program's leaves",
    "static/_init.py::Constant.__call__::key": DETERMINISTIC,
    "nn/initializer/_base.py::Constant._sample::key": DETERMINISTIC,
    "nn/initializer/_base.py::NumpyArrayInitializer._make::key": DETERMINISTIC,
    "nn/initializer/_scaled.py::Dirac._sample::key": DETERMINISTIC,
    "nn/initializer/_scaled.py::Bilinear._sample::key": DETERMINISTIC,
    "hapi/_progressbar.py::NotebookBar.__init__::verbose": "internal; make_bar builds it only for verbose=1",
    # arguments with no effect on values, in Paddle too
    "_tensor/device.py::cuda::blocking": PLACEMENT,
    "_tensor/device.py::pin_memory::blocking": PLACEMENT,
    "nn/layer/_layers.py::Layer.to::blocking": PLACEMENT,
    "nn/layer/_layers.py::Layer.to::non_blocking": PLACEMENT,
    "static/_scope.py::DenseTensor.set::place": PLACEMENT,
    "nn/initializer/_base.py::Constant.__init__::force_cpu": PLACEMENT,
    "_api/irregular.py::unique::sorted": PADDLE_IGNORES + " (sorted=False also gives the sorted unique values)",
    "_ops/loss_extra.py::softmax_with_cross_entropy::numeric_stable_mode": PADDLE_IGNORES + " (always the stable "
                                                                             "log-softmax form)",
    "_ops/norm.py::instance_norm::running_mean": "Paddle documents it 'Obsolete (that is, no longer usable)': "
                                                 "neither read nor updated (test_instance_norm_running_stats)",
    "_ops/norm.py::instance_norm::running_var": "as running_mean",
    "_ops/norm.py::instance_norm::momentum": "only for the obsolete running statistics (as running_mean)",
    "_ops/sorting.py::sort::stable": "the sort is always stable, and a stable order is one of the orders "
                                     "stable=False allows (ties in any order)",
    "_ops/sorting.py::argsort::stable": "as sort",
    "_ops/sorting.py::topk::sorted": PADDLE_IGNORES + " (sorted=False returns the sorted top k); 'not sorted' "
                                     "allows any order, sorted is one",
    "_ops/special_functions.py::bitwise_left_shift::is_arithmetic": "arithmetic and logical left shifts are the "
                                                                   "same operation (Paddle gives the same values)",
    "metric/_metrics.py::Accuracy.compute::args": "Paddle's signature compute(pred, label, *args) ignores them too",
    "metric/_metrics.py::Accuracy.update::args": "Paddle's signature update(correct, *args) ignores them too",
    "nn/layer/_common.py::Identity.__init__::args": "Paddle: Identity 'args: any argument (unused)'",
    "nn/layer/_common.py::Identity.__init__::kwargs": "Paddle: Identity 'kwargs: any keyword argument (unused)'",
    "nn/initializer/_base.py::UniformInitializer.__init__::diag_step": "only used with diag_num > 0, which raises "
                                                                       "NotImplementedError",
    "nn/initializer/_base.py::UniformInitializer.__init__::diag_val": "as diag_step",
    "static/_control_flow.py::cond::return_names": "Paddle: 'the name of returned vars'; naming only (as name=)",
    "static/_control_flow.py::while_loop::is_test": "Paddle: only marks the test phase (no backward kept); the "
                                                    "loop's values are the same",
    "static/_executor.py::Executor.run::feed_var_name": "the name of Paddle's internal feed op; no effect on values",
    "static/_executor.py::Executor.run::fetch_var_name": "the name of Paddle's internal fetch op",
    "static/_executor.py::Executor.run::use_program_cache": "compiled programs are always cached per feed "
                                                            "signature; the results are the same either way",
    "static/_program.py::Program.to_string::throw_on_error": "the printout has no unset fields to report",
    "static/_program.py::Program.to_string::with_details": "the printout always shows every op with its "
                                                           "attributes; there are no further details to add",
    "static/_program.py::data::lod_level": PADDLE_IGNORES + " (Paddle 3 programs have no LoD; the variable has "
                                           "no lod_level)",
    "vision/models/googlenet.py::Inception.__init__::output_channels": PADDLE_IGNORES + " (the block's width is "
                                                                        "the sum of its four branches)",
    "vision/models/resnet.py::BasicBlock.__init__::base_width": PADDLE_IGNORES + " (shared signature with "
                                                                "BottleneckBlock; resnet18(width=...) builds the "
                                                                "same network in Paddle)",
    "vision/models/resnet.py::BasicBlock.__init__::groups": PADDLE_IGNORES + " (shared signature with "
                                                            "BottleneckBlock)",
    "vision/ops.py::box_coder::name": NAME,
    "vision/ops.py::deform_conv2d::name": NAME,
    "vision/ops.py::prior_box::name": NAME,
    "vision/ops.py::psroi_pool::name": NAME,
    "vision/ops.py::roi_align::name": NAME,
    "vision/ops.py::roi_pool::name": NAME,
    "vision/ops.py::yolo_box::name": NAME,
    "vision/ops.py::yolo_loss::name": NAME,
    "vision/_proposals.py::generate_proposals::name": NAME,
    "vision/_proposals.py::distribute_fpn_proposals::name": NAME,
    "vision/_proposals.py::matrix_nms::name": NAME,
    "vision/_image_io.py::read_file::name": NAME,
    "vision/_image_io.py::decode_jpeg::name": NAME,
    **{f"_api/namespace_extras.py::{f}::name": NAME for f in ("binomial", "log_normal", "positive", "range",
                                                              "standard_gamma")},
    "nn/_pdist.py::pdist::name": NAME,
    "_api/namespace_extras.py::create_array::dtype": PADDLE_IGNORES + " (in dynamic mode a tensor array is a Python "
                                                    "list; Paddle does not look at dtype there)",
    "vision/transforms/_pil_image.py::erase::inplace": PADDLE_IGNORES + " (a PIL image is erased into a new image)",
    "vision/transforms/transforms.py::BaseTransform._get_params::inputs": "hook for subclasses that draw one set "
                                                                          "of parameters per call; the base draws none",
    **{f"incubate/{where}::name": NAME for where in (
        "_tensor_ops.py::graph_send_recv", "_tensor_ops.py::segment_max", "_tensor_ops.py::segment_mean",
        "_tensor_ops.py::segment_min", "_tensor_ops.py::segment_sum", "_tensor_ops.py::softmax_mask_fuse",
        "nn/_functional.py::fused_bias_dropout_residual_layer_norm", "nn/_functional.py::fused_dropout_add",
        "nn/_functional.py::fused_feedforward", "nn/_functional.py::fused_linear", "nn/_functional.py::fused_matmul_bias",
        "nn/_functional.py::fused_multi_head_attention", "nn/_functional.py::swiglu",
        "optimizer/functional/_minimize.py::minimize_bfgs", "optimizer/functional/_minimize.py::minimize_lbfgs")},
    "incubate/nn/_layers.py::FusedFeedForward.forward::cache": (
        "Paddle 3.3.1's FusedFeedForward.forward(src, cache=None) never reads cache either (its source passes src and "
        "the layer's parameters to fused_feedforward only): a feed-forward block keeps no state between steps"),
    **{f"sparse/__init__.py::{f}::name": NAME for f in (
        "add", "addmm", "cast", "coalesce", "divide", "isnan", "mask_as", "masked_matmul", "matmul", "multiply", "mv",
        "neg", "pca_lowrank", "pow", "reshape", "slice", "subtract", "sum", "transpose")},
    "sparse/__init__.py::_unary.fn::name_": NAME, "sparse/__init__.py::_angle.fn::name_": NAME,
    **{f"sparse/nn/functional.py::{f}::name": NAME for f in (
        "attention", "conv2d", "conv3d", "leaky_relu", "max_pool3d", "relu", "relu6", "softmax", "subm_conv2d",
        "subm_conv2d_igemm", "subm_conv3d", "subm_conv3d_igemm")},
    "sparse/__init__.py::sparse_coo_tensor::place": PLACEMENT, "sparse/__init__.py::sparse_csr_tensor::place": PLACEMENT,
    **{f"sparse/nn/functional.py::{f}::key": (
        "Paddle's key names a cached rulebook (the pairing of inputs and outputs) that submanifold convolutions of one "
        "pattern share for speed; the values do not depend on it") for f in (
        "subm_conv2d", "subm_conv2d_igemm", "subm_conv3d", "subm_conv3d_igemm")},
}


# ---- the scan -------------------------------------------------------------------------------------
def _only_raises(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    return bool(body) and all(isinstance(s, ast.Raise) for s in body)


def _kwargs_dropped(fn: ast.FunctionDef | ast.AsyncFunctionDef, kw: str) -> bool:
    """``**kw`` read only by ``kw.get(...)``, ``kw.pop(...)`` or ``kw[...]``: other keys are dropped."""
    parents = {child: node for node in ast.walk(fn) for child in ast.iter_child_nodes(node)}
    uses = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == kw and isinstance(n.ctx, ast.Load)]
    return bool(uses) and all(
        isinstance(parents[n], ast.Subscript)
        or (isinstance(parents[n], ast.Attribute) and parents[n].attr in ("get", "pop", "setdefault"))
        for n in uses
    )


def ignored_parameters(root: pathlib.Path = PKG) -> dict[str, int]:
    """``{"path::qualname::param": line}`` for each parameter a function accepts and never reads."""
    found: dict[str, int] = {}

    def check(fn: ast.FunctionDef | ast.AsyncFunctionDef, key: str) -> None:
        if _only_raises(fn):
            return
        a = fn.args
        params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *([a.vararg] if a.vararg else [])]
        read = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("locals", "vars")
               and not n.args for n in ast.walk(fn)):
            return
        for p in params:
            if p.arg not in ("self", "cls") and p.arg.strip("_") and p.arg not in read:
                found[f"{key}::{p.arg}"] = fn.lineno
        if a.kwarg and (a.kwarg.arg not in read or _kwargs_dropped(fn, a.kwarg.arg)):
            found[f"{key}::{a.kwarg.arg}"] = fn.lineno

    def visit(node: ast.AST, stack: list[str], rel: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                if not isinstance(child, ast.ClassDef):
                    check(child, f"{rel}::{'.'.join([*stack, child.name])}")
                visit(child, [*stack, child.name], rel)
            else:
                visit(child, stack, rel)

    for path in sorted(root.rglob("*.py")):
        visit(ast.parse(path.read_text(), str(path)), [], path.relative_to(root).as_posix())
    return found


def test_no_accepted_argument_is_ignored():
    found = ignored_parameters()
    new = sorted(k for k in found if k not in ALLOWED)
    assert not new, (
        "these parameters are accepted and never read (implement them, raise NotImplementedError for a value "
        "that is not supported, or add them to ALLOWED with the reason they have no effect):\n  "
        + "\n  ".join(f"{k} (line {found[k]})" for k in new)
    )


def test_allowed_entries_are_still_needed():
    found = ignored_parameters()
    stale = sorted(k for k in ALLOWED if k not in found)
    assert not stale, "these ALLOWED entries no longer match an ignored parameter; remove them:\n  " + "\n  ".join(stale)


def test_scan_finds_an_ignored_parameter_and_a_dropped_keyword(tmp_path):
    (tmp_path / "m.py").write_text(
        "def f(x, axis=0, name=None):\n    return x + name.count('a')\n"
        "def g(x, **kw):\n    return x * kw.get('scale', 1)\n"
        "def h(x, **kw):\n    return k(x, **kw)\n"
        "def r(x, y):\n    'doc'\n    raise NotImplementedError('r')\n"
        "class C:\n    def m(self, _, z):\n        return locals()\n"
        "    def n(self, a, b):\n        def inner(c):\n            return a\n        return inner\n"
    )
    assert ignored_parameters(tmp_path) == {
        "m.py::f::axis": 1, "m.py::g::kw": 3, "m.py::C.n::b": 13, "m.py::C.n.inner::c": 14}


# ---- arguments implemented here, against Paddle's recorded numbers ---------------------------------
def _close(a, b, **kw):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b, np.float32), **kw)


@pytest.mark.parametrize("act", ["relu", "tanh", "sigmoid", "softmax"])
def test_scale_applies_act(act):
    v = paddle.to_tensor([-1.0, 0.5, 2.0])
    _close(paddle.scale(v, 2.0, bias=0.5, act=act).numpy(), DATA[f"scale_act_{act}"], rtol=1e-6, atol=1e-7)


def test_scale_act_after_bias_first_and_gradient():
    v = paddle.to_tensor([-1.0, 0.5, 2.0], stop_gradient=False)
    out = paddle.scale(v, 2.0, bias=0.5, bias_after_scale=False, act="relu")
    _close(out.numpy(), DATA["scale_act_relu_before"], rtol=1e-6)
    out.sum().backward()
    _close(v.grad.numpy(), [0.0, 2.0, 2.0])  # relu's gradient through the scale


def test_scale_rejects_unknown_act():
    with pytest.raises(ValueError, match=r"scale: act must be None or one of relu, .*received 'bogus'"):
        paddle.scale(paddle.ones([2]), act="bogus")


@pytest.mark.parametrize("mode", ["use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                                  "donot_use_mm_for_euclid_dist"])
@pytest.mark.parametrize("rows", [30, 4])
def test_cdist_compute_mode(mode, rows):
    # rows near 100: the matrix-product form |x|^2 - 2x.y + |y|^2 cancels in float32 and is off from the exact
    # distance by ~1e-3 (in its own rounding, different in Paddle and XLA), the direct form by ~1e-6; so each
    # mode shows which form ran. '..._if_necessary' uses the product when a side has more than 25 rows.
    x64 = np.array(DATA["cdist_x"] if rows == 30 else DATA["cdist_y"], np.float64)
    y64 = np.array(DATA["cdist_y"] if rows == 30 else DATA["cdist_y"][:2], np.float64)
    exact = np.linalg.norm(x64[:, None] - y64[None], axis=-1)
    ours = paddle.cdist(paddle.to_tensor(x64.astype("float32")), paddle.to_tensor(y64.astype("float32")),
                        compute_mode=mode).numpy()
    recorded = np.array(DATA[f"cdist_{mode}" if rows == 30 else f"cdist_small_{mode}"])
    uses_mm = mode == "use_mm_for_euclid_dist" or (mode == "use_mm_for_euclid_dist_if_necessary" and rows > 25)
    for got in (ours, recorded):
        assert (np.abs(got - exact).max() > 1e-4) == uses_mm
    _close(ours, recorded, atol=1e-2 if uses_mm else 1e-5)


def test_cdist_rejects_unknown_mode():
    with pytest.raises(ValueError, match=r"cdist: compute_mode must be one of .*received 'nope'"):
        paddle.cdist(paddle.ones([2, 3]), paddle.ones([2, 3]), compute_mode="nope")


def test_repeat_interleave_output_size():
    x, r = paddle.to_tensor([1.0, 2.0, 3.0]), paddle.to_tensor([1, 2, 3])
    _close(paddle.repeat_interleave(x, r, output_size=6).numpy(), DATA["repeat_interleave_output_size"])
    with pytest.raises(ValueError, match=r"repeat_interleave: output_size must equal .* 6, but received output_size=4"):
        paddle.repeat_interleave(x, r, output_size=4)
    with pytest.raises(ValueError, match=r"output_size must equal .* 6, but received output_size=5"):
        paddle.repeat_interleave(x, 2, output_size=5)


def test_dropout_inplace_writes_into_x():
    paddle.seed(3)
    x = paddle.ones([64])
    out = F.dropout(x, 0.5, inplace=True)
    assert out is x
    assert set(np.unique(x.numpy()).tolist()) == {0.0, 2.0}  # kept values scaled by 1 / (1 - p), in x itself
    leaf = paddle.ones([4])
    leaf.stop_gradient = False
    with pytest.raises(ValueError, match="dropout: Leaf Var .* can't use inplace strategy"):
        F.dropout(leaf, 0.5, inplace=True)


def test_instance_norm_running_stats():
    # Paddle documents running_mean/running_var/momentum as obsolete: it neither reads nor updates them
    x = paddle.to_tensor(DATA["instance_norm_x"])
    rm, rv = paddle.zeros([3]), paddle.ones([3])
    _close(F.instance_norm(x, rm, rv, momentum=0.5).numpy(), DATA["instance_norm_with_stats"], rtol=1e-5, atol=1e-6)
    _close(rm.numpy(), DATA["instance_norm_running_after"][0])
    _close(rv.numpy(), DATA["instance_norm_running_after"][1])


@pytest.mark.parametrize("opt", ["AdamW", "Lamb", "Rprop"])
@pytest.mark.parametrize("reg", ["none", "l2", "l1"])
def test_parameter_regularizer_applies_under_decoupled_rules(opt, reg):
    regs = {"none": None, "l2": paddle.regularizer.L2Decay(10.0), "l1": paddle.regularizer.L1Decay(0.5)}
    kw = {"AdamW": {"learning_rate": 0.1, "weight_decay": 0.01}, "Lamb": {"learning_rate": 0.1},
          "Rprop": {"learning_rate": 0.1}}[opt]
    w = paddle.create_parameter([3], "float32", attr=paddle.ParamAttr(regularizer=regs[reg]),
                                default_initializer=paddle.nn.initializer.Assign(np.array([1.0, -2.0, 3.0], "float32")))
    o = getattr(paddle.optimizer, opt)(parameters=[w], **kw)
    c = paddle.to_tensor([0.1, 0.2, -0.3])
    for _ in range(3):
        (w * c * w).sum().backward()
        o.step()
        o.clear_grad()
    _close(w.numpy(), DATA[f"opt_{opt}_{reg}"], rtol=1e-5, atol=1e-6)


# ---- arguments rejected when given a value that is not supported -----------------------------------
def test_grad_only_inputs_false_is_rejected():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(NotImplementedError, match=r"paddle.grad: only_inputs=False .* not supported"):
        paddle.grad((x * 2).sum(), x, only_inputs=False)


def test_append_backward_callbacks_are_rejected():
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data("x", [2, 3], "float32")
            x.stop_gradient = False
            loss = (x * 2).sum()
            with pytest.raises(NotImplementedError, match=r"append_backward: callbacks .* not supported"):
                paddle.static.append_backward(loss, callbacks=[print])
    finally:
        paddle.disable_static()


def test_create_parameter_device_is_rejected():
    layer = paddle.nn.Layer()
    with pytest.raises(NotImplementedError, match=r"Layer.create_parameter: device='cpu' is not supported"):
        layer.create_parameter([2], device="cpu")


def test_rng_state_device_is_checked():
    state = paddle.get_rng_state("cpu")
    paddle.set_rng_state(state, device="cpu")
    a = paddle.rand([3]).numpy()
    paddle.set_rng_state(state)
    np.testing.assert_array_equal(paddle.rand([3]).numpy(), a)
    with pytest.raises(ValueError, match=r"paddle.get_rng_state: the device must be a string like 'cpu'.*'bogus'"):
        paddle.get_rng_state("bogus")
    with pytest.raises(ValueError, match=r"paddle.set_rng_state: the device must be a string like"):
        paddle.set_rng_state(state, device="bogus")


def test_disable_static_place_sets_the_device():
    paddle.enable_static()
    paddle.disable_static("cpu")
    assert paddle.device.get_device() == "cpu"
    assert paddle.in_dynamic_mode()
    paddle.enable_static()
    with pytest.raises(ValueError, match=r"paddle.disable_static: the device must be a string like"):
        paddle.disable_static("bogus")
    paddle.disable_static()


def test_array_protocol_copy():
    t = paddle.to_tensor([1.0, 2.0])
    a = np.array(t, copy=True)
    assert a.flags.writeable and a.flags.owndata
    a[0] = 5.0
    assert t.numpy()[0] == 1.0
    with pytest.raises(ValueError, match=r"Tensor.__array__: converting float32 to float64 needs a copy, but copy=False"):
        np.asarray(t, dtype="float64", copy=False)
    np.testing.assert_array_equal(np.asarray(t, dtype="float64"), [1.0, 2.0])
