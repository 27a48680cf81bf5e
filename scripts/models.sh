#!/usr/bin/env bash
# Reproduces models/: synthetic crops from the document factory, then
# docnet (type + orientation: three networks from three seeds, exported as
# their mean) trained on them with Debian's PyTorch (CPU), fine-tuned on
# crops cut as loosely as the cropper cuts them (about 6 minutes),
# calibrated, exported to ONNX and recorded in models/manifest.json; the
# printed words' weights refitted to it (tools/wordsfit); then cropnet (neural cropper) trained on whole factory scenes (block at the end).
#   CROP_MINUTES=55 CROP_THREADS=2 scripts/models.sh  cropnet's budget on the CPU
#                                                     (default 55 minutes on every core)
#   CROP_WORKERS=2 scripts/models.sh                  cropnet's CPU batches made by 2 processes
#   CROP_DEVICE=cuda scripts/models.sh                cropnet on a GPU, its batches
#                                                     made on it (6.8 + 3.4 minutes)
#   scripts/models.sh            data under .cache/train (kept between runs)
#   MINUTES=90 scripts/models.sh a longer docnet budget (default 75 for its three members; 30 epochs of one take about 16)
#   THREADS=1 scripts/models.sh  leave cores to other work (default: all)
#   DOCNET_DEVICE=cuda scripts/models.sh  docnet on a GPU (crops held and augmented
#                                on it: about 4 minutes for the three members)
#   SKIP_CROPNET=1 scripts/models.sh  docnet only: stop before the cropnet block
# The data is made once per recipe and factory (see set_tag); delete
# .cache/train to remake it.
set -euo pipefail
cd "$(dirname "$0")/.."
data=.cache/train
minutes="${MINUTES:-75}"
docnet_device="${DOCNET_DEVICE:-cpu}"
threads="${THREADS:-$(nproc)}"
mkdir -p "$data" bin
go build -o bin/synth ./tools/synth
# A set is made again when its count, seed or flags change, or the
# factory does: its tag hashes them with the factory's sources.
factory=$(scripts/factory-tag.sh)
set_tag() { # scenes seed [flags]
	printf '%s ' "$factory" "$@" | sha256sum | cut -c1-12
}
make_set() { # name scenes seed [flags]
	make_set_at "$@" -crop-size 256 -size 1000
}
make_set_at() { # name scenes seed [flags]: crops at the sizes the flags give
	local name=$1 n=$2 seed=$3
	shift 3
	local tag
	tag=$(set_tag "$n" "$seed" "$@")
	if [[ -f "$data/$name/labels.csv" && -f "$data/$name/.done-$tag" ]]; then
		echo "synth: $data/$name already made"
		return
	fi
	rm -rf "${data:?}/$name"
	nice bin/synth -out "$data/$name" -n "$n" -seed "$seed" -crops "$@"
	touch "$data/$name/.done-$tag"
}
# Training crops are upright (the script turns them eight ways itself);
# validation and test crops lie as the factory lays them.
# One photographed document in seven after the first is a closed booklet
# cover (class other).
make_set train 3600 101 -turn 0 -mirror 0 -cover 0.15
make_set train2 3600 102 -turn 0 -mirror 0 -cover 0.15
make_set val 250 202 -cover 0.15
make_set test 300 303 -cover 0.15
nice /usr/bin/python3 scripts/train_docnet.py --train "$data/train" --train "$data/train2" --val "$data/val" \
	--test "$data/test" --out models --size 96 --epochs 30 --members 3 --threads "$threads" --max-minutes "$minutes" --device "$docnet_device" \
	--data-note "tools/synth -crops -crop-size 256 -size 1000 -cover 0.15: train 2x3600 upright scenes (seeds 101, 102), val 250 (seed 202), test 300 (seed 303)"

# Then fine-tuned (--init, 6 epochs at a sixth of the learning rate) on crops
# cut as loosely as the cropper cuts them (-crop-jitter 0.06: corner error
# 6 % of the document's size, the factory's default is 1 %) mixed with crops
# cut as before, and on documents outside the catalogue cut both ways, so the
# loosely cut crops do not teach it to name a type where it said `other`
# (docs/models.md, "docnet fine-tuned on crops cut less exactly"). On the
# CPU whatever DOCNET_DEVICE says: 6 epochs of 6,600 crops take about 6
# minutes on 2 cores.
make_set ft-loose 1800 9201 -turn 0 -mirror 0 -cover 0.15 -crop-jitter 0.06
make_set ft-exact 1800 9202 -turn 0 -mirror 0 -cover 0.15
make_set ft-other-loose 250 9203 -turn 0 -mirror 0 -cover 0.15 -types other -crop-jitter 0.06
make_set ft-other 250 9204 -turn 0 -mirror 0 -cover 0.15 -types other
nice /usr/bin/python3 scripts/train_docnet.py --init models/docnet.onnx --freeze-bn \
	--train "$data/ft-loose" --train "$data/ft-exact" --train "$data/ft-other-loose" --train "$data/ft-other" \
	--val "$data/val" --test "$data/test" --out models --size 96 --epochs 6 --lr 0.0005 --members 3 \
	--threads "$threads" --max-minutes "$minutes" --device cpu \
	--data-note "trained on tools/synth -crops -crop-size 256 -size 1000 -cover 0.15: 2x3600 upright scenes (seeds 101, 102); then fine-tuned on upright crops: 1800 scenes at -crop-jitter 0.06 (seed 9201), 1800 at 0.01 (seed 9202), 250 of -types other at 0.06 (seed 9203) and 250 at 0.01 (seed 9204); val 250 (seed 202), test 300 (seed 303)"

# The printed words' weights (pkg/classify/wordweights.json) are fitted to
# docnet's probabilities: refit on 1200-pixel crops read as the classifier
# worker reads them (one set with the usual effects, one with them doubled,
# one of documents outside the catalogue only, which are 1 in 97 of the
# others and over half of what a service sees), measured on a fourth. The
# readings are redone: docnet has just changed.
make_words() { # name scenes seed [flags]
	local name=$1 n=$2 seed=$3
	shift 3
	make_set_at "$name" "$n" "$seed" -crop-size 1200 -size 1600 "$@"
	rm -f "$data/$name/wordsfit.jsonl"
}
make_words words-fit 400 7707 -cover 0.15
make_words words-hard 300 7709 -fx 2 -cover 0.15
make_words words-other 150 7713 -types other -cover 0.15
make_words words-test 200 7711 -cover 0.15
# The dictionary that tells a real word no template prints from OCR's
# gibberish comes from the installed Tesseract's own word lists.
go run ./tools/dictwords
go build -o bin/wordsfit ./tools/wordsfit
OMP_THREAD_LIMIT=1 nice bin/wordsfit -fit "$data/words-fit,$data/words-hard,$data/words-other" -test "$data/words-test" -write

if [[ "${SKIP_CROPNET:-0}" == 1 ]]; then
	echo "models: SKIP_CROPNET=1, cropnet left as it is"
	exit 0
fi

# cropnet, the neural cropper's segmentation network: whole factory scenes
# (448 px), letterboxed to 320 by the script, trained in two stages: from
# scratch, then fine-tuned from those weights with the outline's loss
# weighed 1 + 3 times where it parts two documents (--contact-weight).
# On a GPU (CROP_DEVICE=cuda) the batches are made on it
# (--device-batches) and the stages take 6.8 and 3.4 minutes, the recipe
# of the committed network; on the CPU they share CROP_MINUTES (default 55:
# 40 + 15) and the batches come from numpy (--workers processes).
# Progress is saved in $data/cropnet-<recipe>-<stage>.ckpt: a run that was
# stopped resumes there (delete the files to train from the start); a
# changed recipe (scene flags, size, loss weights) starts checkpoints of its
# own, as it makes its scenes anew.
crop_minutes="${CROP_MINUTES:-55}"
crop_device="${CROP_DEVICE:-cpu}"
make_scenes() { # name scenes seed [flags]
	local name=$1 n=$2 seed=$3
	shift 3
	local tag
	tag=$(set_tag "$n" "$seed" "$@")
	if [[ -f "$data/$name/.done-$tag" ]]; then
		echo "synth: $data/$name already made"
		return
	fi
	rm -rf "${data:?}/$name"
	nice bin/synth -out "$data/$name" -n "$n" -seed "$seed" -size 448 "$@"
	touch "$data/$name/.done-$tag"
}
make_scenes crop-train 4000 4401
make_scenes crop-train2 3000 4402 -min-docs 2
make_scenes crop-val 200 4403
recipe=$( (ls "$data"/crop-*/.done-*; echo "cropnet 320 contact 3") | sha256sum | cut -c1-12)
if [[ "$crop_device" == cpu ]]; then
	crop_feed=(--batch 12 --workers "${CROP_WORKERS:-0}")
	first_minutes=$(awk -v m="$crop_minutes" 'BEGIN { print m * 40 / 55 }')
	second_minutes=$(awk -v m="$crop_minutes" 'BEGIN { print m * 15 / 55 }')
else
	crop_feed=(--batch 48 --device-batches)
	first_minutes=6.8
	second_minutes=3.4
fi
crop_note="tools/synth -size 448: train 4000 scenes (seed 4401) + 3000 scenes with 2..4 documents (seed 4402, -min-docs 2), val 200 (seed 4403); two stages: from scratch (lr 0.004, no contact weight, $first_minutes minutes), then fine-tuned from its weights (contact weight 3, lr 0.002, $second_minutes minutes) on $crop_device"
crop_common=(--train "$data/crop-train" --train "$data/crop-train2" --val "$data/crop-val" --size 320 --crop 240
	--steps 300000 --threads "${CROP_THREADS:-$threads}" --device "$crop_device" "${crop_feed[@]}")
nice /usr/bin/python3 scripts/train_cropnet.py "${crop_common[@]}" --lr 0.004 --max-minutes "$first_minutes" \
	--checkpoint "$data/cropnet-$recipe-1.ckpt" --no-export
nice /usr/bin/python3 scripts/train_cropnet.py "${crop_common[@]}" --lr 0.002 --max-minutes "$second_minutes" \
	--init "$data/cropnet-$recipe-1.ckpt" --contact-weight 3 --checkpoint "$data/cropnet-$recipe-2.ckpt" \
	--out models --data-note "$crop_note"
