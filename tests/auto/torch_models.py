"""The torch models the torch search is checked and benchmarked on: a two-layer MLP, a GPT-2 block, a Llama block
(grouped-query attention, SwiGLU), a mixture-of-experts layer (8 experts, top-2 routing) and a Wide-ResNet-50-2
bottleneck block, each at a tiny size (float64, run on simulated devices against torch) and at a bench size (float32,
priced only). transformers' own blocks are built from configs with random weights (nothing downloaded)."""
import os
import torch

os.environ.setdefault("HF_HUB_OFFLINE", "1")


class MLP(torch.nn.Module):
    "Up projection, GELU, down projection."
    def __init__(self, d, h):
        super().__init__(); self.up, self.down = torch.nn.Linear(d, h), torch.nn.Linear(h, d)

    def forward(self, x): return self.down(torch.nn.functional.gelu(self.up(x)))


class GPT2Block(torch.nn.Module):
    "transformers' GPT2Block (eager attention), its hidden states out."
    def __init__(self, d, heads):
        super().__init__()
        import transformers as tf
        self.b = tf.models.gpt2.modeling_gpt2.GPT2Block(tf.GPT2Config(n_embd=d, n_head=heads, n_positions=1024, attn_implementation="eager"))

    def forward(self, x): return self.b(x)[0]


class LlamaBlock(torch.nn.Module):
    "transformers' LlamaDecoderLayer (grouped-query attention, SwiGLU MLP, RMSNorm) with its rotary embedding."
    def __init__(self, d, h, heads, kv_heads):
        super().__init__()
        import transformers as tf
        cfg = tf.LlamaConfig(hidden_size=d, intermediate_size=h, num_attention_heads=heads, num_key_value_heads=kv_heads,
                             max_position_embeddings=1024, attn_implementation="eager")
        self.b = tf.models.llama.modeling_llama.LlamaDecoderLayer(cfg, 0)
        self.rope = tf.models.llama.modeling_llama.LlamaRotaryEmbedding(cfg)

    def forward(self, x):
        pos = torch.arange(x.shape[1]).unsqueeze(0)
        out = self.b(x, position_embeddings=self.rope(x, pos), attention_mask=None, position_ids=pos)
        return out[0] if isinstance(out, tuple) else out


class MoE(torch.nn.Module):
    "A mixture of `E` experts (ReLU MLPs), top-`k` routing by a softmax over the chosen logits; every expert runs on every token, weighted by its gate (zero where not chosen)."
    def __init__(self, d, h, E=8, k=2):
        super().__init__(); self.k = k
        self.router = torch.nn.Linear(d, E, bias=False)
        self.w1 = torch.nn.Parameter(torch.randn(E, d, h) / d ** 0.5); self.w2 = torch.nn.Parameter(torch.randn(E, h, d) / h ** 0.5)

    def forward(self, x):
        b, t, d = x.shape
        logits = self.router(x)
        vals, idx = torch.topk(logits, self.k, dim=-1)
        gates = (torch.nn.functional.one_hot(idx, logits.shape[-1]).to(x.dtype) * torch.softmax(vals, dim=-1).unsqueeze(-1)).sum(-2)
        xs = x.reshape(1, b * t, d).expand(self.w1.shape[0], b * t, d)
        y = torch.bmm(torch.relu(torch.bmm(xs, self.w1)), self.w2)
        return (y * gates.reshape(b * t, -1).transpose(0, 1).unsqueeze(-1)).sum(0).reshape(b, t, d)


class Bottleneck(torch.nn.Module):
    "Wide-ResNet-50-2's bottleneck: 1x1, 3x3, 1x1 convolutions with batch norms (eval), an identity shortcut."
    def __init__(self, c, w):
        super().__init__()
        self.c1, self.b1 = torch.nn.Conv2d(c, w, 1, bias=False), torch.nn.BatchNorm2d(w)
        self.c2, self.b2 = torch.nn.Conv2d(w, w, 3, padding=1, bias=False), torch.nn.BatchNorm2d(w)
        self.c3, self.b3 = torch.nn.Conv2d(w, c, 1, bias=False), torch.nn.BatchNorm2d(c)

    def forward(self, x):
        y = torch.relu(self.b1(self.c1(x))); y = torch.relu(self.b2(self.c2(y)))
        return torch.relu(self.b3(self.c3(y)) + x)


# name -> (tiny model and input shape, bench model and input shape)
MODELS = {
    "mlp": (lambda: MLP(16, 64), (8, 8, 16), lambda: MLP(1024, 4096), (8, 512, 1024)),
    "gpt2_block": (lambda: GPT2Block(32, 4), (8, 8, 32), lambda: GPT2Block(768, 16), (8, 512, 768)),
    "llama_block": (lambda: LlamaBlock(32, 64, 4, 2), (8, 8, 32), lambda: LlamaBlock(1024, 2816, 16, 8), (8, 512, 1024)),
    "moe_layer": (lambda: MoE(16, 32), (8, 8, 16), lambda: MoE(512, 1024), (8, 256, 512)),
    "wide_resnet_bottleneck": (lambda: Bottleneck(32, 32), (8, 32, 8, 8), lambda: Bottleneck(256, 128), (8, 256, 56, 56)),
}


def arguments(ep, module, *user) -> list:
    "The module's arguments as float64 numpy arrays: the user's tensors, and the parameters and buffers of the exported program."
    it, vals = iter(user), {}
    for s in ep.graph_signature.input_specs:
        vals[s.arg.name] = next(it) if s.kind.name == "USER_INPUT" else (ep.state_dict[s.target] if s.target in ep.state_dict else ep.constants[s.target])
    return [vals[v.name].detach().double().numpy() for v in module.main.args]


def tiny(name):
    "(module, arguments, the model's own output) of the tiny float64 model `name`."
    from shardnb.mindspore.torch_frontend import from_torch
    make, shape = MODELS[name][:2]
    torch.manual_seed(0)
    m = make().eval().double()
    x = torch.randn(*shape, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    with torch.no_grad(): want = m(x).numpy()
    ep = torch.export.export(m, (x,))
    module = from_torch(ep)
    return module, arguments(ep, module, x), want


def bench(name):
    "The bench-size float32 module of model `name`."
    from shardnb.mindspore.torch_frontend import from_torch
    make, shape = MODELS[name][2:]
    torch.manual_seed(0)
    return from_torch(torch.export.export(make().eval(), (torch.randn(*shape),)))
