#!/usr/bin/env python3
"""LoRA SFT on workspace-gym trajectories (transformers + peft + trl SFTTrainer).

    python train_lora.py --config config.json            # train (GPU)
    python train_lora.py --config config.json --check    # validate config and data only (no torch needed)

Data (data.format in the config), as trainer/export.ts writes it:
  openai    {"messages": [...], "tools": [...]}                      OpenAI chat fine-tuning JSONL
  sharegpt  {"conversations": [{"from", "value"}], "tools": "<json>"}   LLaMA-Factory tool-calling layout
  tokens    {"input_ids": [...], "labels": [...]}                     already tokenized by the served model's template

For openai/sharegpt the script tokenizes with the model's own chat template and puts the loss on assistant turns
only, with the prefix method documented in trainer/export.ts: assistant turn i is the token span between
template(messages[:i], add_generation_prompt=True) and template(messages[:i+1]); examples whose template is not
prefix-stable are dropped and counted. The dataset reaches SFTTrainer pre-tokenized (skip_prepare_dataset) with a
collator that pads input_ids/labels, so TRL's own conversational preprocessing (and Arrow's schema unification of
the varied tool-argument dicts) never touches it.

Not yet run on a GPU: the pinned versions in requirements.txt are the API this was written against.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
from typing import Any

IGNORE_INDEX = -100
TOOL_RESPONSE_JOIN = "\n</tool_response>\n<tool_response>\n"


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
    return cfg


def read_jsonl(path: str) -> list[dict]:
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise SystemExit(f"{path}:{n}: {e}")
    return rows


def _args_dict(arguments: Any) -> Any:
    """Hugging Face chat templates expect tool-call arguments as a dict (OpenAI sends a JSON string)."""
    if isinstance(arguments, str):
        try:
            return json.loads(arguments or "{}")
        except json.JSONDecodeError:
            return arguments
    return arguments


def from_openai(row: dict) -> tuple[list[dict], list[dict]]:
    messages = []
    for m in row["messages"]:
        m = dict(m)
        if m.get("role") == "assistant":
            m.setdefault("content", "")
            if m["content"] is None:
                m["content"] = ""
            if m.get("tool_calls"):
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


def tokenize_with_mask(tokenizer: Any, messages: list[dict], tools: list[dict], template_kwargs: dict) -> dict | None:
    """input_ids of the whole conversation and labels only on assistant turns (prefix method); None if not prefix-stable."""
    def tok(msgs: list[dict], gen: bool) -> list[int]:
        return _ids(tokenizer.apply_chat_template(msgs, tools=tools or None, add_generation_prompt=gen, tokenize=True, **template_kwargs))

    full = tok(messages, False)
    labels = [IGNORE_INDEX] * len(full)
    for i, m in enumerate(messages):
        if m["role"] != "assistant":
            continue
        p, q = tok(messages[:i], True), tok(messages[: i + 1], False)
        if q[: len(p)] != p or full[: len(q)] != q or len(q) == len(p):
            return None
        labels[len(p) : len(q)] = full[len(p) : len(q)]
    return {"input_ids": full, "labels": labels}


def build_examples(cfg: dict, tokenizer: Any | None) -> tuple[list[dict], dict]:
    data = cfg["data"]
    fmt = data["format"]
    rows = read_jsonl(data["path"])
    stats = {"rows": len(rows), "kept": 0, "too_long": 0, "not_prefix_stable": 0, "no_assistant_tokens": 0}
    out = []
    max_len = int(cfg.get("max_length", 8192))
    for row in rows:
        if fmt == "tokens":
            ex = {"input_ids": row["input_ids"], "labels": row["labels"]}
            if len(ex["input_ids"]) != len(ex["labels"]):
                raise SystemExit("tokens data: input_ids and labels differ in length")
        else:
            messages, tools = to_chat(row, fmt)
            if tokenizer is None:  # --check: conversion only
                ex = {"messages": messages, "tools": tools}
                stats["kept"] += 1
                out.append(ex)
                continue
            ex = tokenize_with_mask(tokenizer, messages, tools, cfg.get("chat_template_kwargs") or {})
            if ex is None:
                stats["not_prefix_stable"] += 1
                continue
        if len(ex["input_ids"]) > max_len:
            stats["too_long"] += 1
            continue
        if all(x == IGNORE_INDEX for x in ex["labels"]):
            stats["no_assistant_tokens"] += 1
            continue
        stats["kept"] += 1
        out.append(ex)
    return out, stats


def split(examples: list[dict], cfg: dict) -> tuple[list[dict], list[dict]]:
    frac = float(cfg["data"].get("eval_fraction", 0))
    rng = random.Random(int(cfg["data"].get("shuffle_seed", 17)))
    idx = list(range(len(examples)))
    rng.shuffle(idx)
    n_eval = int(len(examples) * frac) if len(examples) > 1 else 0
    return [examples[i] for i in idx[n_eval:]], [examples[i] for i in idx[:n_eval]]


def check(cfg: dict) -> None:
    examples, stats = build_examples(cfg, None)
    train, evals = split(examples, cfg)
    roles: dict[str, int] = {}
    for ex in examples:
        for m in ex.get("messages", []):
            roles[m["role"]] = roles.get(m["role"], 0) + 1
    print(json.dumps({"ok": True, "format": cfg["data"]["format"], **stats, "train": len(train), "eval": len(evals), "roles": roles}))


def train(cfg: dict) -> None:
    import torch
    from datasets import Dataset
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    tokenizer = AutoTokenizer.from_pretrained(cfg["model"])
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    examples, stats = build_examples(cfg, tokenizer if cfg["data"]["format"] != "tokens" else None)
    print("data:", json.dumps(stats), flush=True)
    if not examples:
        raise SystemExit("no training examples left")
    train_rows, eval_rows = split(examples, cfg)

    t = dict(cfg["training"])
    eval_steps = t.pop("eval_steps", None)
    report_to = t.pop("report_to", "none")
    if t.get("gradient_checkpointing"):
        # Non-reentrant checkpointing works with frozen base weights (no enable_input_require_grads needed).
        t.setdefault("gradient_checkpointing_kwargs", {"use_reentrant": False})
    args = SFTConfig(
        **t,
        max_length=int(cfg.get("max_length", 8192)),
        dataset_kwargs={"skip_prepare_dataset": True},
        remove_unused_columns=False,
        report_to=report_to,
        eval_strategy="steps" if eval_rows else "no",
        eval_steps=eval_steps if eval_rows else None,
    )
    model = AutoModelForCausalLM.from_pretrained(
        cfg["model"], torch_dtype=torch.bfloat16 if t.get("bf16", True) else torch.float32, attn_implementation=cfg.get("attn_implementation", "sdpa")
    )
    lora = cfg["lora"]
    peft_config = LoraConfig(r=int(lora["r"]), lora_alpha=int(lora["alpha"]), lora_dropout=float(lora.get("dropout", 0.0)), target_modules=lora.get("target_modules", "all-linear"), task_type="CAUSAL_LM")
    pad = tokenizer.pad_token_id

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

    trainer = SFTTrainer(
        model=model,
        args=args,
        train_dataset=Dataset.from_list(train_rows),
        eval_dataset=Dataset.from_list(eval_rows) if eval_rows else None,
        processing_class=tokenizer,
        peft_config=peft_config,
        data_collator=collate,
    )
    trainer.train()
    out = os.path.join(t.get("output_dir", "out"), "adapter")
    trainer.save_model(out)
    tokenizer.save_pretrained(out)
    print("adapter saved to", out, flush=True)


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", required=True)
    ap.add_argument("--check", action="store_true", help="validate config and data only; imports no ML library")
    a = ap.parse_args(argv)
    cfg = load_config(a.config)
    if a.check:
        check(cfg)
    else:
        train(cfg)


if __name__ == "__main__":
    main(sys.argv[1:])
