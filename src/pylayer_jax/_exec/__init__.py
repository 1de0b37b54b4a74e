"""Layer L1: the deferred-execution buffer that records eager kernel calls and runs them."""
