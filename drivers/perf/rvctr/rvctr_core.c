// SPDX-License-Identifier: GPL-2.0-only
/*
 * rvctr: the RISC-V CPU PMU with Control Transfer Records.
 *
 * The module registers a platform driver and its device; probe discovers
 * the extensions every hart has and the CTR depths they support.
 */
#define pr_fmt(fmt) "rvctr: " fmt

#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include <rvctr/ctr.h>
#include "rvctr.h"

#define RVCTR_DRV_NAME	"rvctr-pmu"

struct rvctr_pmu {
	struct rvctr_caps caps;
};

static void rvctr_report(struct device *dev, const struct rvctr_caps *caps)
{
	char buf[96];
	int i, len = 0;

	for (i = 0; i < RVCTR_NR_EXT; i++)
		if (rvctr_has(caps, i))
			len += scnprintf(buf + len, sizeof(buf) - len, " %s",
					 rvctr_ext_name(i));
	dev_info(dev, "extensions on all harts:%s\n", len ? buf : " none");

	len = 0;
	for (i = 0; i <= RVCTR_DEPTH_ENC_MAX; i++)
		if (caps->ctr_depths & BIT(i))
			len += scnprintf(buf + len, sizeof(buf) - len, " %u",
					 RVCTR_DEPTH_MIN << i);
	dev_info(dev, "CTR depths:%s\n", len ? buf : " none");
}

static int rvctr_probe(struct platform_device *pdev)
{
	struct rvctr_pmu *rp;
	int ret;

	rp = devm_kzalloc(&pdev->dev, sizeof(*rp), GFP_KERNEL);
	if (!rp)
		return -ENOMEM;
	ret = rvctr_isa_probe(&pdev->dev, &rp->caps);
	if (ret)
		return ret;
	rvctr_report(&pdev->dev, &rp->caps);
	platform_set_drvdata(pdev, rp);
	return 0;
}

static struct platform_driver rvctr_driver = {
	.probe = rvctr_probe,
	.driver = {
		.name = RVCTR_DRV_NAME,
	},
};

static struct platform_device *rvctr_pdev;

static int __init rvctr_init(void)
{
	int ret;

	ret = platform_driver_register(&rvctr_driver);
	if (ret)
		return ret;
	rvctr_pdev = platform_device_register_simple(RVCTR_DRV_NAME, -1, NULL, 0);
	if (IS_ERR(rvctr_pdev)) {
		ret = PTR_ERR(rvctr_pdev);
		goto err_driver;
	}
	return 0;

err_driver:
	platform_driver_unregister(&rvctr_driver);
	return ret;
}

static void __exit rvctr_exit(void)
{
	platform_device_unregister(rvctr_pdev);
	platform_driver_unregister(&rvctr_driver);
}

module_init(rvctr_init);
module_exit(rvctr_exit);
MODULE_DESCRIPTION("RISC-V CPU PMU with Control Transfer Records");
MODULE_LICENSE("GPL");
