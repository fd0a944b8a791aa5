#!/usr/bin/env python3
"""LoRA SFT on workspace-gym trajectories (transformers Trainer + peft), for Qwen3, Qwen3.5 and Qwen2.5-style models.

    python train_lora.py --config config.json --check       # tokenize and count; fail closed above the drop limit
    python train_lora.py --config config.json --dry-step    # one CPU step on a tiny random model, save, reload
    python train_lora.py --config config.json               # train (GPU), resume from the last checkpoint

Data (data.format), as trainer/export.ts writes it; data.path is the train split, data.dev_path the dev split:
  tokens    {"input_ids", "labels", ...}  already tokenized by the model's own template (recommended: tested offline
            against the real Qwen3/Qwen2.5 templates, per-turn examples where the template is not prefix-stable)
  openai    {"messages", "tools"}        tokenized here with the model's chat template
  sharegpt  {"conversations", "tools"}   LLaMA-Factory layout, tokenized here

openai/sharegpt are labelled like trainer/tokens.ts: `mask` auto | conversation | per-turn, `thinking` strip | keep.
Examples that cannot be labelled or are longer than max_length are dropped (never cut) and counted; --check fails
when the dropped fraction is above max_drop_fraction, and so does training, before it loads the model.

Not yet run on a GPU: the pins in requirements.txt are the API this was written against (trainer/README.md).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
from typing import Any

IGNORE_INDEX = -100
TOOL_RESPONSE_JOIN = "\n</tool_response>\n<tool_response>\n"
VISION_PARTS = ("visual", "vision_tower", "vision_model", "multi_modal_projector", "mm_projector", "image_newline")
# LoRA targets per model_type (the language model's linear layers). Qwen3.5 is a hybrid: full-attention layers and
# Gated DeltaNet linear-attention layers, whose projections are adapted too. `auto` keeps the names a loaded model has.
ARCH_TARGETS = {
    "qwen2": ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
    "qwen3": ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
    "llama": ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
    "qwen3_5": ["q_proj", "k_proj", "v_proj", "o_proj", "in_proj_qkv", "in_proj_z", "in_proj_b", "in_proj_a", "in_proj_qkvz", "in_proj_ba", "out_proj", "gate_proj", "up_proj", "down_proj"],
}
ARCH_TARGETS["qwen3_5_text"] = ARCH_TARGETS["qwen3_5"]
ARCH_TARGETS["qwen3_next"] = ARCH_TARGETS["qwen3_5"]


class Mismatch(Exception):
    """The chat template cannot isolate an assistant turn (trainer/tokens.ts TemplateMismatch)."""


def load_config(path: str) -> dict:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith((".yaml", ".yml")):
        import yaml  # pyyaml, pinned in requirements.txt

        cfg = yaml.safe_load(text)
    else:
        cfg = json.loads(text)
    for key in ("model", "data", "lora", "training"):
        if key not in cfg:
            raise SystemExit(f"config: missing key '{key}'")
    if cfg["data"].get("format") not in ("openai", "sharegpt", "tokens"):
        raise SystemExit("config: data.format must be openai, sharegpt or tokens")
    if cfg.get("mask", "auto") not in ("auto", "conversation", "per-turn"):
        raise SystemExit("config: mask must be auto, conversation or per-turn")
    if cfg.get("thinking", "strip") not in ("keep", "strip"):
        raise SystemExit("config: thinking must be keep or strip")
    return cfg


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def read_jsonl(path: str, stats: dict) -> list[dict]:
    """Rows of a JSONL file; a line that is not a JSON object is counted in stats['bad_lines'] and skipped."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                stats["bad_lines"] += 1
                print(f"{path}:{n}: skipped: {e}", file=sys.stderr)
                continue
            if isinstance(row, dict):
                rows.append(row)
            else:
                stats["bad_lines"] += 1
    return rows


def _args_dict(arguments: Any) -> Any:
    """Hugging Face chat templates expect tool-call arguments as a dict (OpenAI sends a JSON string), as vLLM does."""
    if isinstance(arguments, str):
        try:
            v = json.loads(arguments or "{}")
            return v if isinstance(v, dict) else arguments
        except json.JSONDecodeError:
            return arguments
    return arguments


def from_openai(row: dict) -> tuple[list[dict], list[dict]]:
    messages = []
    for m in row["messages"]:
        m = dict(m)
        if m.get("content") is None:
            m["content"] = ""
        if m.get("role") == "assistant" and m.get("tool_calls"):
            m["tool_calls"] = [
                {"id": c.get("id"), "type": "function", "function": {"name": c["function"]["name"], "arguments": _args_dict(c["function"]["arguments"])}}
                for c in m["tool_calls"]
            ]
        messages.append(m)
    return messages, row.get("tools") or []


def from_sharegpt(row: dict) -> tuple[list[dict], list[dict]]:
    tools = row.get("tools") or "[]"
    tools = json.loads(tools) if isinstance(tools, str) else tools
    tools = [t if t.get("type") == "function" else {"type": "function", "function": t} for t in tools]
    messages: list[dict] = []
    pending: list[str] = []  # ids of the last function_call turn, for its observation
    counter = 0
    for turn in row["conversations"]:
        frm, value = turn["from"], turn["value"]
        if frm == "system":
            messages.append({"role": "system", "content": value})
        elif frm == "human":
            messages.append({"role": "user", "content": value})
        elif frm == "gpt":
            messages.append({"role": "assistant", "content": value})
        elif frm == "function_call":
            calls = json.loads(value)
            calls = calls if isinstance(calls, list) else [calls]
            pending = []
            tool_calls = []
            for c in calls:
                cid = f"call_{counter}"
                counter += 1
                pending.append(cid)
                tool_calls.append({"id": cid, "type": "function", "function": {"name": c["name"], "arguments": _args_dict(c.get("arguments", {}))}})
            messages.append({"role": "assistant", "content": "", "tool_calls": tool_calls})
        elif frm == "observation":
            # Several answers are joined as LLaMA-Factory joins them (trainer/export.ts TOOL_RESPONSE_JOIN).
            answers = value.split(TOOL_RESPONSE_JOIN) if len(pending) > 1 else [value]
            if len(answers) != len(pending or ["call_x"]):
                answers = [value]
            for cid, a in zip(pending or ["call_x"], answers):
                messages.append({"role": "tool", "tool_call_id": cid, "content": a})
        else:
            raise ValueError(f"unknown ShareGPT role '{frm}'")
    return messages, tools


def to_chat(row: dict, fmt: str) -> tuple[list[dict], list[dict]]:
    return from_openai(row) if fmt == "openai" else from_sharegpt(row)


def _ids(x: Any) -> list[int]:
    # apply_chat_template(tokenize=True) answers a list, or a BatchEncoding/dict in some versions.
    if isinstance(x, dict) or hasattr(x, "keys"):
        x = x["input_ids"]
    return list(x)


def strip_thinking(m: dict) -> dict:
    m = {k: v for k, v in m.items() if k not in ("reasoning_content", "reasoning")}
    c = m.get("content")
    if isinstance(c, str) and "</think>" in c:
        m["content"] = c[c.rindex("</think>") + len("</think>"):].lstrip("\n")
    return m


def _as_sent(m: dict) -> dict:
    if m.get("role") != "assistant":
        return m
    return {k: v for k, v in m.items() if k not in ("reasoning_content", "reasoning")}


def tokenize_examples(tok: Any, messages: list[dict], tools: list[dict], kwargs: dict, mask: str = "auto", thinking: str = "strip") -> list[dict]:
    """Labelled examples of one conversation (see trainer/tokens.ts): one (conversation) or one per assistant turn."""
    def render(msgs: list[dict], gen: bool) -> list[int]:
        return _ids(tok.apply_chat_template(msgs, tools=tools or None, add_generation_prompt=gen, tokenize=True, **kwargs))

    target = (lambda m: strip_thinking(m)) if thinking == "strip" else (lambda m: m)
    assistants = [i for i, m in enumerate(messages) if m.get("role") == "assistant"]

    def conversation() -> list[dict]:
        msgs = [target(m) if m.get("role") == "assistant" else m for m in messages]
        if any(msgs[i].get("reasoning_content") for i in assistants[:-1]):
            raise Mismatch("kept reasoning of an earlier turn was never in the model's context")
        full = render(msgs, False)
        labels = [IGNORE_INDEX] * len(full)
        for i in assistants:
            p, q = render(msgs[:i], True), render(msgs[: i + 1], False)
            if q[: len(p)] != p or full[: len(q)] != q or len(q) == len(p):
                raise Mismatch(f"message {i}: not prefix-stable")
            labels[len(p): len(q)] = full[len(p): len(q)]
        return [{"input_ids": full, "labels": labels}]

    def per_turn() -> list[dict]:
        out = []
        for i in assistants:
            history = [_as_sent(m) for m in messages[:i]]
            p, q = render(history, True), render(history + [target(messages[i])], False)
            if q[: len(p)] != p or len(q) == len(p):
                raise Mismatch(f"message {i}: the generation prompt is not a prefix of the rendered turn")
            out.append({"input_ids": q, "labels": [IGNORE_INDEX] * len(p) + q[len(p):]})
        return out

    if mask == "per-turn":
        return per_turn()
    try:
        return conversation()
    except Mismatch:
        if mask == "conversation":
            raise
        return per_turn()


def build_examples(cfg: dict, path: str, tokenizer: Any | None) -> tuple[list[dict], dict]:
    """Examples of one data file and what happened to its rows (tokenizer None: tokens format only)."""
    fmt = cfg["data"]["format"]
    stats = {"rows": 0, "bad_lines": 0, "examples": 0, "kept": 0, "too_long": 0, "not_prefix_stable": 0, "no_assistant_tokens": 0, "unreadable": 0}
    rows = read_jsonl(path, stats)
    stats["rows"] = len(rows)
    max_len = int(cfg.get("max_length", 8192))
    out = []
    for row in rows:
        try:
            if fmt == "tokens":
                exs = [{"input_ids": list(row["input_ids"]), "labels": list(row["labels"])}]
                if len(exs[0]["input_ids"]) != len(exs[0]["labels"]):
                    raise ValueError("input_ids and labels differ in length")
            else:
                messages, tools = to_chat(row, fmt)
                exs = tokenize_examples(tokenizer, messages, tools, cfg.get("chat_template_kwargs") or {}, cfg.get("mask", "auto"), cfg.get("thinking", "strip"))
        except Mismatch:
            stats["not_prefix_stable"] += 1
            continue
        except (KeyError, TypeError, ValueError) as e:
            stats["unreadable"] += 1
            print(f"{path}: skipped a row: {e}", file=sys.stderr)
            continue
        for ex in exs:
            stats["examples"] += 1
            if len(ex["input_ids"]) > max_len:
                stats["too_long"] += 1
            elif all(x == IGNORE_INDEX for x in ex["labels"]):
                stats["no_assistant_tokens"] += 1
            else:
                stats["kept"] += 1
                out.append(ex)
    return out, stats


def drop_fraction(stats: dict) -> float:
    lost = stats["bad_lines"] + stats["unreadable"] + stats["not_prefix_stable"]
    dropped_examples = stats["too_long"] + stats["no_assistant_tokens"]
    total_rows = stats["rows"] + stats["bad_lines"]
    if not total_rows:
        return 1.0
    return max(lost / total_rows, dropped_examples / max(1, stats["examples"]))


def load_tokenizer(cfg: dict) -> Any:
    try:
        from transformers import AutoTokenizer
    except ImportError:
        raise SystemExit(f"--check: data.format {cfg['data']['format']} is tokenized here, and transformers is not installed: cannot count what would be dropped (install requirements.txt, or export the tokens format)")
    tok = AutoTokenizer.from_pretrained(cfg.get("tokenizer") or cfg["model"])
    if tok.pad_token_id is None:
        tok.pad_token = tok.eos_token
    return tok


def data_report(cfg: dict, tokenizer: Any | None) -> tuple[dict, dict, list[dict], list[dict]]:
    data = cfg["data"]
    train, tstats = build_examples(cfg, data["path"], tokenizer)
    dev, dstats = ([], None)
    if data.get("dev_path") and os.path.exists(data["dev_path"]):
        dev, dstats = build_examples(cfg, data["dev_path"], tokenizer)
    return tstats, dstats, train, dev


def check(cfg: dict) -> int:
    tokenizer = None if cfg["data"]["format"] == "tokens" else load_tokenizer(cfg)
    tstats, dstats, train, dev = data_report(cfg, tokenizer)
    limit = float(cfg.get("max_drop_fraction", 0.05))
    frac = drop_fraction(tstats)
    ok = frac <= limit and tstats["kept"] > 0
    print(json.dumps({"ok": ok, "format": cfg["data"]["format"], "train": tstats, "dev": dstats, "drop_fraction": round(frac, 4), "max_drop_fraction": limit}), flush=True)
    if not ok:
        print(f"check: refusing: {frac:.1%} of the training data would be dropped (limit {limit:.1%}; max_drop_fraction in the config): {json.dumps(tstats)}", file=sys.stderr)
        return 3
    return 0


def lora_targets(model: Any, cfg: dict) -> tuple[Any, dict]:
    """PEFT target_modules for this model: the language model's linear layers, never the vision tower or lm_head."""
    import torch

    wanted = cfg["lora"].get("target_modules", "auto")
    mtype = getattr(getattr(model, "config", None), "model_type", "") or ""
    linear = [n for n, m in model.named_modules() if isinstance(m, torch.nn.Linear) and not any(p in n.split(".") for p in VISION_PARTS) and not n.endswith("lm_head")]
    leaves = sorted({n.split(".")[-1] for n in linear})
    if wanted == "auto":
        known = ARCH_TARGETS.get(mtype)
        names = [x for x in (known or leaves) if x in leaves]
    elif isinstance(wanted, list):
        names = [x for x in wanted if x in leaves]
    else:
        names = leaves  # "all-linear": every language-model linear layer
    if not names:
        raise SystemExit(f"lora: no target module found (model_type {mtype}, linear layers {leaves})")
    vision = "|".join(VISION_PARTS)
    regex = rf"^(?!.*\b(?:{vision})\b).*\.({'|'.join(map(re.escape, names))})$"
    return regex, {"model_type": mtype, "names": names, "linear_layers": len(linear), "regex": regex}


def load_model(cfg: dict, dtype: Any) -> Any:
    """The causal language model; a vision-language checkpoint (e.g. Qwen3.5) loads whole, its vision tower frozen."""
    from transformers import AutoModelForCausalLM

    kw = {"dtype": dtype, "attn_implementation": cfg.get("attn_implementation", "sdpa")}
    try:
        return AutoModelForCausalLM.from_pretrained(cfg["model"], **kw)
    except ValueError:
        from transformers import AutoModelForImageTextToText

        return AutoModelForImageTextToText.from_pretrained(cfg["model"], **kw)


def collate_fn(pad: int):
    import torch

    def collate(batch: list[dict]) -> dict:
        n = max(len(b["input_ids"]) for b in batch)
        ids = torch.full((len(batch), n), pad, dtype=torch.long)
        labels = torch.full((len(batch), n), IGNORE_INDEX, dtype=torch.long)
        mask = torch.zeros((len(batch), n), dtype=torch.long)
        for i, b in enumerate(batch):
            k = len(b["input_ids"])
            ids[i, :k] = torch.tensor(b["input_ids"])
            labels[i, :k] = torch.tensor(b["labels"])
            mask[i, :k] = 1
        return {"input_ids": ids, "labels": labels, "attention_mask": mask}

    return collate


def write_report(out_dir: str, report: dict) -> None:
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "report.json"), "w", encoding="utf-8") as f:
        json.dump(report, f, indent=2)
        f.write("\n")


def train(cfg: dict) -> int:
    import torch
    from peft import LoraConfig, PeftModel, get_peft_model
    from transformers import Trainer, TrainingArguments
    from transformers.trainer_utils import get_last_checkpoint

    started = time.time()
    tokenizer = load_tokenizer(cfg)
    tstats, dstats, train_rows, dev_rows = data_report(cfg, tokenizer if cfg["data"]["format"] != "tokens" else None)
    limit = float(cfg.get("max_drop_fraction", 0.05))
    if drop_fraction(tstats) > limit or not train_rows:
        raise SystemExit(f"refusing to train: {drop_fraction(tstats):.1%} of the training data dropped (limit {limit:.1%}): {json.dumps(tstats)}")
    print("data:", json.dumps({"train": tstats, "dev": dstats}), flush=True)

    t = dict(cfg["training"])
    out_dir = t.get("output_dir", "out")
    bf16 = bool(t.get("bf16", True))
    model = load_model(cfg, torch.bfloat16 if bf16 else torch.float32)
    for p in model.parameters():
        p.requires_grad_(False)
    targets, target_info = lora_targets(model, cfg)
    lora = cfg["lora"]
    model = get_peft_model(model, LoraConfig(r=int(lora["r"]), lora_alpha=int(lora["alpha"]), lora_dropout=float(lora.get("dropout", 0.0)), target_modules=targets, task_type="CAUSAL_LM"))
    model.print_trainable_parameters()
    if t.get("gradient_checkpointing"):
        t.setdefault("gradient_checkpointing_kwargs", {"use_reentrant": False})
    eval_steps = t.pop("eval_steps", None)
    report_to = t.pop("report_to", "none")
    from datasets import Dataset

    args = TrainingArguments(**t, remove_unused_columns=False, report_to=report_to,
                             eval_strategy="steps" if dev_rows else "no", eval_steps=eval_steps if dev_rows else None)
    trainer = Trainer(model=model, args=args, train_dataset=Dataset.from_list(train_rows), eval_dataset=Dataset.from_list(dev_rows) if dev_rows else None,
                      data_collator=collate_fn(tokenizer.pad_token_id), processing_class=tokenizer)
    last = get_last_checkpoint(out_dir) if os.path.isdir(out_dir) else None
    if last:
        print("resuming from", last, flush=True)
    trainer.train(resume_from_checkpoint=last)
    final_eval = trainer.evaluate() if dev_rows else None
    adapter = os.path.join(out_dir, "adapter")
    trainer.save_model(adapter)
    tokenizer.save_pretrained(adapter)
    log_history = list(trainer.state.log_history)

    # Save → reload → generate: the adapter on disk is the one that answers.
    del trainer, model
    torch.cuda.empty_cache() if torch.cuda.is_available() else None
    base = load_model(cfg, torch.bfloat16 if bf16 else torch.float32)
    reloaded = PeftModel.from_pretrained(base, adapter).to("cuda" if torch.cuda.is_available() else "cpu").eval()
    prompt = cfg.get("smoke_prompt") or [{"role": "user", "content": "List the Gmail labels of the user, then call done."}]
    ids = tokenizer.apply_chat_template(prompt, add_generation_prompt=True, return_tensors="pt", **(cfg.get("chat_template_kwargs") or {}))
    ids = (ids["input_ids"] if hasattr(ids, "keys") else ids).to(reloaded.device)
    with torch.no_grad():
        gen = reloaded.generate(input_ids=ids, max_new_tokens=64, do_sample=False)
    smoke = tokenizer.decode(gen[0][ids.shape[1]:], skip_special_tokens=False)
    print("smoke answer:", smoke, flush=True)
    write_report(out_dir, {
        "config": cfg, "resumed_from": last, "lora_targets": target_info,
        "data": {"train": {"path": cfg["data"]["path"], "sha256": sha256_file(cfg["data"]["path"]), **tstats},
                 "dev": {"path": cfg["data"].get("dev_path"), "sha256": sha256_file(cfg["data"]["dev_path"]), **dstats} if dstats else None},
        "losses": [e for e in log_history if "loss" in e or "eval_loss" in e],
        "eval": final_eval, "smoke": {"prompt": prompt, "answer": smoke}, "seconds": round(time.time() - started, 1),
        "versions": versions(),
    })
    return 0


def versions() -> dict:
    out = {"python": sys.version.split()[0]}
    for mod in ("torch", "transformers", "peft", "accelerate", "datasets"):
        try:
            out[mod] = __import__(mod).__version__
        except Exception:  # noqa: BLE001 - absent or broken: recorded as such
            out[mod] = None
    return out


def dry_step(cfg: dict) -> int:
    """One optimisation step on CPU with a tiny randomly initialised model, then save → reload → same logits.

    With transformers + peft installed it uses a tiny Qwen3 and the real LoRA path; with torch alone, a tiny causal
    LM of the same layer names and a minimal LoRA, so the data path (labels, padding, loss on assistant tokens only),
    the trainable-parameter selection and the adapter round trip are still exercised.
    """
    import torch

    torch.manual_seed(0)
    tstats, _, rows, _ = data_report(cfg, None if cfg["data"]["format"] == "tokens" else load_tokenizer(cfg))
    if not rows:
        raise SystemExit("dry step: no example")
    # The last 256 tokens of each: the labelled turn ends an example (per-turn examples are labelled at the end only).
    batch_rows = [{"input_ids": r["input_ids"][-256:], "labels": r["labels"][-256:]} for r in rows[:2]]
    vocab = max(max(r["input_ids"]) for r in batch_rows) + 1
    batch = collate_fn(0)(batch_rows)
    out_dir = os.path.join(cfg["training"].get("output_dir", "out"), "dry")
    os.makedirs(out_dir, exist_ok=True)
    try:
        from peft import LoraConfig, PeftModel, get_peft_model
        from transformers import Qwen3Config, Qwen3ForCausalLM

        kind = "transformers+peft"
        conf = Qwen3Config(vocab_size=vocab, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, head_dim=8, max_position_embeddings=512)
        model = Qwen3ForCausalLM(conf)
        base_state = {k: v.clone() for k, v in model.state_dict().items()}
        targets, info = lora_targets(model, cfg)
        model = get_peft_model(model, LoraConfig(r=4, lora_alpha=8, target_modules=targets, task_type="CAUSAL_LM"))
        forward = lambda m, b: m(**b).loss  # noqa: E731
    except ImportError:
        kind = "torch only"
        model = TinyCausalLM(vocab)
        info = {"names": model.add_lora(4)}
        forward = lambda m, b: m.loss(b)  # noqa: E731
    trainable = [n for n, p in model.named_parameters() if p.requires_grad]
    assert trainable and all("lora" in n for n in trainable), trainable
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)
    loss0 = forward(model, batch)
    loss0.backward()
    opt.step()
    with torch.no_grad():
        loss1 = forward(model, batch).item()
    model.eval()
    with torch.no_grad():
        before = (model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).logits if kind != "torch only" else model(batch["input_ids"]))
    if kind == "torch only":
        torch.save(model.lora_state(), os.path.join(out_dir, "adapter.pt"))
        fresh = TinyCausalLM(vocab)
        fresh.add_lora(4)
        fresh.load_state_dict({k: v for k, v in model.state_dict().items() if "lora_" not in k}, strict=False)
        fresh.load_lora(torch.load(os.path.join(out_dir, "adapter.pt")))
        after = fresh.eval()(batch["input_ids"])
    else:
        model.save_pretrained(out_dir)
        base = Qwen3ForCausalLM(conf)
        base.load_state_dict(base_state)
        after = PeftModel.from_pretrained(base, out_dir).eval()(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).logits
    same = bool(torch.allclose(before, after, atol=1e-5))
    res = {"ok": bool(torch.isfinite(loss0).item()) and same and loss1 < loss0.item(), "kind": kind, "examples": len(batch_rows), "vocab": vocab,
           "loss_before": round(loss0.item(), 4), "loss_after": round(loss1, 4), "trainable": len(trainable), "targets": info.get("names"),
           "labelled_tokens": int((batch["labels"] != IGNORE_INDEX).sum()), "reload_same_logits": same, "torch": torch.__version__}
    print(json.dumps(res), flush=True)
    with open(os.path.join(out_dir, "dry.json"), "w", encoding="utf-8") as f:
        json.dump(res, f)
    return 0 if res["ok"] else 5


def _tiny_classes():
    import torch
    from torch import nn

    class LoraLinear(nn.Module):
        def __init__(self, base: nn.Linear, r: int):
            super().__init__()
            self.base = base
            self.lora_A = nn.Parameter(torch.randn(r, base.in_features) * 0.01)
            self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))

        def forward(self, x):
            return self.base(x) + x @ self.lora_A.t() @ self.lora_B.t()

    class Block(nn.Module):
        def __init__(self, d: int):
            super().__init__()
            self.q_proj, self.k_proj, self.v_proj, self.o_proj = (nn.Linear(d, d, bias=False) for _ in range(4))
            self.gate_proj, self.up_proj = nn.Linear(d, 2 * d, bias=False), nn.Linear(d, 2 * d, bias=False)
            self.down_proj = nn.Linear(2 * d, d, bias=False)

        def forward(self, x):
            n = x.shape[1]
            att = (self.q_proj(x) @ self.k_proj(x).transpose(1, 2)) / x.shape[-1] ** 0.5
            att = att.masked_fill(torch.triu(torch.ones(n, n, dtype=torch.bool), 1), float("-inf")).softmax(-1)
            x = x + self.o_proj(att @ self.v_proj(x))
            return x + self.down_proj(torch.nn.functional.silu(self.gate_proj(x)) * self.up_proj(x))

    class Tiny(nn.Module):
        def __init__(self, vocab: int, d: int = 16):
            super().__init__()
            self.embed_tokens = nn.Embedding(vocab, d)
            self.layers = nn.ModuleList([Block(d), Block(d)])
            self.lm_head = nn.Linear(d, vocab, bias=False)

        def forward(self, ids):
            x = self.embed_tokens(ids)
            for layer in self.layers:
                x = layer(x)
            return self.lm_head(x)

        def loss(self, batch):
            logits = self(batch["input_ids"])[:, :-1]
            return torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), batch["labels"][:, 1:].reshape(-1), ignore_index=IGNORE_INDEX)

        def add_lora(self, r: int) -> list[str]:
            for p in self.parameters():
                p.requires_grad_(False)
            names = ARCH_TARGETS["qwen3"]
            for layer in self.layers:
                for name in names:
                    setattr(layer, name, LoraLinear(getattr(layer, name), r))
            return names

        def lora_state(self):
            return {k: v for k, v in self.state_dict().items() if "lora_" in k}

        def load_lora(self, state):
            missing = set(self.lora_state()) - set(state)
            assert not missing, missing
            self.load_state_dict(state, strict=False)

    return Tiny


def TinyCausalLM(vocab: int):  # noqa: N802 - a class factory (torch is imported lazily)
    return _tiny_classes()(vocab)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", required=True)
    ap.add_argument("--check", action="store_true", help="tokenize and count the data; fail closed above max_drop_fraction")
    ap.add_argument("--dry-step", action="store_true", help="one CPU step on a tiny random model, save, reload")
    a = ap.parse_args(argv)
    cfg = load_config(a.config)
    if a.check:
        return check(cfg)
    if a.dry_step:
        return dry_step(cfg)
    return train(cfg)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
